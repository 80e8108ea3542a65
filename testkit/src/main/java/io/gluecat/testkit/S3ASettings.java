package io.gluecat.testkit;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Hadoop S3A settings for buckets on a {@link MiniStack} ({@link MiniStack#s3aSettings()} and its per-bucket and
 * Spark forms). The global settings, and why each:
 *
 * <ul>
 *   <li>{@code endpoint}: {@link MiniStack#endpoint()}, with its {@code http} scheme, and
 *       {@code connection.ssl.enabled=false} for an endpoint given without one;</li>
 *   <li>{@code endpoint.region}: {@link MiniStack#REGION}, the region {@link MiniStack#createBucket} puts buckets
 *       in. MiniStack answers a request signed for another region than the bucket's with S3's 301 PermanentRedirect.
 *       Without the setting S3A 3.4 signs for us-east-2 and only gets through by its cross-region redirect
 *       (an extra request, and a failure with {@code cross.region.access.enabled=false}); S3A 3.3 signs for
 *       us-east-1, the region of an endpoint whose host names none;</li>
 *   <li>{@code path.style.access=true}: virtual-host requests would go to {@code <bucket>.<host>} (both SDKs
 *       fall back to path style for an IP address, but not for a name such as {@code localhost});</li>
 *   <li>{@code aws.credentials.provider}: the static keys only ({@code SimpleAWSCredentialsProvider} with
 *       {@code access.key} / {@code secret.key}), so that S3A never falls through to the environment's keys
 *       or to the EC2 instance metadata service of its default chain. MiniStack checks no signatures.</li>
 * </ul>
 */
final class S3ASettings {

    /**
     * Bucket names the S3A helpers accept: S3's rules, without dots. Hadoop reads the bucket out of a
     * {@code fs.s3a.bucket.<bucket>.<option>} key by its dots, and path-style requests are the only kind a
     * loopback endpoint can serve, so a dotted bucket would only make per-bucket settings ambiguous.
     */
    private static final Pattern BUCKET_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{1,61}[a-z0-9]");

    private S3ASettings() {
    }

    /** The global {@code fs.s3a.*} settings for a MiniStack at {@code endpoint}. */
    static Map<String, String> of(URI endpoint) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("fs.s3a.endpoint", endpoint.toString());
        settings.put("fs.s3a.endpoint.region", MiniStack.REGION.id());
        settings.put("fs.s3a.path.style.access", "true");
        settings.put("fs.s3a.connection.ssl.enabled", "false");
        settings.put("fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
        settings.put("fs.s3a.access.key", MiniStack.ACCESS_KEY_ID);
        settings.put("fs.s3a.secret.key", MiniStack.SECRET_ACCESS_KEY);
        return settings;
    }

    static Map<String, String> forBucket(String bucket, Map<String, String> settings) {
        checkBucketName(bucket);
        Map<String, String> perBucket = new LinkedHashMap<>();
        settings.forEach((key, value) -> {
            if (!key.startsWith("fs.s3a.") || key.startsWith(MiniStack.S3A_BUCKET_PREFIX)) {
                throw new IllegalArgumentException("not a global S3A option: " + key);
            }
            perBucket.put(MiniStack.S3A_BUCKET_PREFIX + bucket + "." + key.substring("fs.s3a.".length()), value);
        });
        return perBucket;
    }

    static Map<String, String> asSparkSettings(Map<String, String> hadoopSettings) {
        Map<String, String> spark = new LinkedHashMap<>();
        hadoopSettings.forEach((key, value) -> spark.put(MiniStack.SPARK_HADOOP_PREFIX + key, value));
        return spark;
    }

    static void checkBucketName(String bucket) {
        if (bucket == null || !BUCKET_NAME.matcher(bucket).matches()) {
            throw new IllegalArgumentException("not a bucket name for S3A tests (3-63 of a-z, 0-9 and '-', no dots): "
                    + bucket);
        }
    }
}
