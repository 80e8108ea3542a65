package io.gluecat.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.services.glue.model.BatchDeletePartitionRequest;

/** Glue operations MiniStack lacks, answered by the kit as Glue answers them (always on; see {@link GlueSemantics}). */
final class MissingOperations {

    private MissingOperations() {
    }

    /**
     * MiniStack 1.5.33 has no {@code BatchDeletePartition} (it answers {@code InvalidAction}); the kit then
     * deletes each partition of the request with MiniStack's {@code DeletePartition} (same endpoint, same
     * credentials header, so the same account) and answers as AWS Glue would: {@code {"Errors": [...]}}
     * with a partition MiniStack does not have reported as {@code EntityNotFoundException}. Only a request
     * that reached MiniStack and was refused as unknown is emulated, so a MiniStack that learns the
     * operation answers itself. The answer is the attempt's {@code emulatedBody}.
     */
    static void emulate(Context.AfterTransmission context, Attempt attempt) {
        if (!GlueCallRecorder.GLUE.equals(attempt.service) || !"BatchDeletePartition".equals(attempt.operation)
                || context.httpResponse().isSuccessful() || !"InvalidAction".equals(attempt.errorCode)
                || !(context.request() instanceof BatchDeletePartitionRequest)) {
            return;
        }
        var request = (BatchDeletePartitionRequest) context.request();
        SdkHttpRequest http = context.httpRequest();
        URI endpoint = URI.create(http.protocol() + "://" + http.host() + ":" + http.port() + "/");
        StringBuilder errors = new StringBuilder();
        HttpClient client = HttpClient.newHttpClient();
        try {
            for (var partition : request.partitionsToDelete()) {
                StringBuilder values = new StringBuilder();
                for (String v : partition.values()) {
                    values.append(values.length() == 0 ? "" : ",").append(SdkJson.quoted(v));
                }
                String keyBody = "\"DatabaseName\":" + SdkJson.quoted(GlueSemantics.storedName(request.databaseName()))
                        + ",\"TableName\":" + SdkJson.quoted(GlueSemantics.storedName(request.tableName()))
                        + ",\"PartitionValues\":[" + values + "]";
                if (!exists(client, endpoint, http, "GetPartition", keyBody)) {
                    errors.append(errors.length() == 0 ? "" : ",").append("{\"PartitionValues\":[").append(values)
                            .append("],\"ErrorDetail\":{\"ErrorCode\":\"EntityNotFoundException\",")
                            .append("\"ErrorMessage\":\"Partition not found\"}}");
                    continue;
                }
                exists(client, endpoint, http, "DeletePartition", keyBody);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        synchronized (GlueCallRecorder.LOCK) {
            attempt.emulatedBody = ("{\"Errors\":[" + errors + "]}").getBytes(StandardCharsets.UTF_8);
            attempt.httpStatus = 200;
            attempt.errorCode = null;
        }
    }

    /** Sends one Glue JSON call to MiniStack as the original request's caller; true on HTTP 200. */
    private static boolean exists(HttpClient client, URI endpoint, SdkHttpRequest original,
                                  String operation, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                .header("Content-Type", "application/x-amz-json-1.1")
                .header("X-Amz-Target", "AWSGlue." + operation)
                .POST(HttpRequest.BodyPublishers.ofString("{" + body + "}"));
        original.firstMatchingHeader("Authorization").ifPresent(a -> request.header("Authorization", a));
        return client.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    }
}
