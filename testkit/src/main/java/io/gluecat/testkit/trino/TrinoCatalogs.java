package io.gluecat.testkit.trino;

import io.gluecat.testkit.MiniStack;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Catalog properties for {@link TrinoServer.Builder#catalog}, with Trino 476's property names (checked against its
 * configuration classes: {@code GlueHiveMetastoreConfig}, {@code LocalFileSystemConfig}, {@code S3FileSystemConfig},
 * {@code DeltaLakeConfig}, {@code IcebergConfig}; Trino refuses a property no module uses, so a wrong name fails the start).
 */
public final class TrinoCatalogs {
    private TrinoCatalogs() {
    }

    /** Trino's Delta Lake connector on a Glue Data Catalog at {@code endpoint}, with static keys. */
    public static Map<String, String> deltaLakeOnGlue(URI endpoint, String region, String accessKey, String secretKey) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("connector.name", "delta_lake");
        p.put("hive.metastore", "glue");
        p.putAll(glue(endpoint, region, accessKey, secretKey));
        // The procedure that registers an existing Delta table's location under a name.
        p.put("delta.register-table-procedure.enabled", "true");
        return p;
    }

    /**
     * Trino's Hive connector on {@code ministack}'s Glue, as the test user: it reads Hive-compatible tables (parquet,
     * orc, avro entries with their real SerDe) and takes their partitions from Glue's partition objects only.
     */
    public static Map<String, String> hiveOnGlue(MiniStack ministack) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("connector.name", "hive");
        p.put("hive.metastore", "glue");
        p.putAll(glueAsTestUser(ministack));
        return p;
    }

    /**
     * Trino's Iceberg connector with its Glue catalog ({@code iceberg.catalog.type=glue}) on {@code ministack}'s Glue,
     * as the test user: the entries it writes are Iceberg's own ({@code table_type = ICEBERG}, {@code
     * metadata_location}), committed with Glue's {@code VersionId}.
     */
    public static Map<String, String> icebergOnGlue(MiniStack ministack) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("connector.name", "iceberg");
        p.put("iceberg.catalog.type", "glue");
        p.putAll(glueAsTestUser(ministack));
        return p;
    }

    private static Map<String, String> glueAsTestUser(MiniStack ministack) {
        return glue(ministack.endpoint(), MiniStack.REGION.id(), MiniStack.ACCESS_KEY_ID, MiniStack.SECRET_ACCESS_KEY);
    }

    /** Trino's Glue metastore settings (every connector here reads Glue with them). */
    private static Map<String, String> glue(URI endpoint, String region, String accessKey, String secretKey) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("hive.metastore.glue.region", region);
        p.put("hive.metastore.glue.endpoint-url", endpoint.toString());
        p.put("hive.metastore.glue.aws-access-key", accessKey);
        p.put("hive.metastore.glue.aws-secret-key", secretKey);
        return p;
    }

    /** {@link #deltaLakeOnGlue(URI, String, String, String)} on {@code ministack}'s Glue, as the test user. */
    public static Map<String, String> deltaLakeOnGlue(MiniStack ministack) {
        return deltaLakeOnGlue(ministack.endpoint(), MiniStack.REGION.id(), MiniStack.ACCESS_KEY_ID,
                MiniStack.SECRET_ACCESS_KEY);
    }

    /**
     * Trino's native local file system rooted at {@code root}: Trino names files {@code local:///<path under root>},
     * and stores such locations in the metastore; it also reads {@code file:} locations relative to the root. Trino 476
     * reads tables and creates them (also with CREATE TABLE AS SELECT) there, but refuses INSERT into an existing
     * table, even with {@code delta.enable-non-concurrent-writes} (it has a Delta log writer only for object stores
     * and HDFS).
     */
    public static Map<String, String> localFileSystem(Path root) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("fs.native-local.enabled", "true");
        p.put("local.location", root.toAbsolutePath().toString());
        return p;
    }

    /**
     * Trino's native S3 file system on {@code ministack}'s S3: path-style requests, region us-east-1, the test keys,
     * and {@code s3.exclusive-create=true} (Trino 476's default, set so that it stays on): the Delta Lake connector
     * then commits with put-if-absent ({@code S3ConditionalWriteLogSynchronizer}), which MiniStack's S3 honours, and
     * writes without {@code delta.enable-non-concurrent-writes}. With {@code false} Trino would take its lock-file
     * synchronizer, which it counts unsafe and refuses to write with unless that property is set.
     */
    public static Map<String, String> s3FileSystem(MiniStack ministack) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("fs.native-s3.enabled", "true");
        p.put("s3.endpoint", ministack.endpoint().toString());
        p.put("s3.region", MiniStack.REGION.id());
        p.put("s3.path-style-access", "true");
        p.put("s3.aws-access-key", MiniStack.ACCESS_KEY_ID);
        p.put("s3.aws-secret-key", MiniStack.SECRET_ACCESS_KEY);
        p.put("s3.exclusive-create", "true");
        return p;
    }
}
