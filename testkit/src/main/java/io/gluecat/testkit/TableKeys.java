package io.gluecat.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * The partition keys of the tables partition calls name, read with a GetTable of the kit's own (sent straight to
 * the server, not recorded) and kept per table until this JVM changes the table or {@link #clear()} (each test):
 * for {@link GlueSemantics.Behaviour#PARTITIONS_AS_GLUE} (an expression's literals are typed by them) and
 * {@link GlueSemantics.Behaviour#MISSING_TABLE_PARTITIONS} (no table, no partitions). Only tables that exist are
 * kept, so a table another process (Trino) creates is seen at once.
 */
final class TableKeys {

    /** Partition operations Glue refuses with EntityNotFoundException when their table does not exist. */
    private static final Set<String> PARTITION_OPERATIONS = Set.of("GetPartitions", "GetPartition",
            "BatchGetPartition", "CreatePartition", "BatchCreatePartition", "UpdatePartition", "BatchUpdatePartition",
            "DeletePartition", "BatchDeletePartition");
    /** Operations after which a kept table's keys may be stale. */
    private static final Set<String> TABLE_CHANGES = Set.of("CreateTable", "UpdateTable", "DeleteTable",
            "BatchDeleteTable", "DeleteDatabase");

    /** What {@link #of} answers when the server says there is no such table (EntityNotFoundException). */
    static final List<Map.Entry<String, String>> NO_TABLE = new ArrayList<>(0);

    private static final Map<String, List<Map.Entry<String, String>>> KEPT = new ConcurrentHashMap<>();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private TableKeys() {
    }

    static void clear() {
        KEPT.clear();
    }

    /** Forgets the kept keys of the tables a table-changing request may change (all of its database's). */
    static void forget(SdkRequest request, SdkHttpRequest http) {
        String operation = request.getClass().getSimpleName().replace("Request", "");
        if (!TABLE_CHANGES.contains(operation)) {
            return;
        }
        Object database = Attempt.field(request, "DatabaseName");
        if (database == null) {
            database = Attempt.field(request, "Name");   // DeleteDatabase
        }
        String prefix = endpoint(http) + "|" + GlueSemantics.storedName(String.valueOf(database)) + "|";
        KEPT.keySet().removeIf(k -> k.startsWith(prefix));
    }

    /** A partition call on a table that does not exist: refused as Glue refuses it, without sending it. */
    static void refuseMissingTable(Context.BeforeTransmission context, Attempt attempt) {
        if (!GlueCallRecorder.GLUE.equals(attempt.service) || !PARTITION_OPERATIONS.contains(attempt.operation)) {
            return;
        }
        SdkRequest request = context.request();
        String database = attempt.databaseName;
        String table = attempt.tableName;   // as the caller named it (a kept listing's later page asks for none)
        if (database == null || table == null
                || of(context.httpRequest(), Attempt.string(Attempt.field(request, "CatalogId")), database, table)
                != NO_TABLE) {
            return;
        }
        Fault refusal = Fault.glue(attempt.operation).error("EntityNotFoundException", 400)
                .message("Table " + table + " not found in database " + database + ".").build();
        AwsServiceException failure = AwsErrors.serviceException(refusal, attempt, request);
        synchronized (GlueCallRecorder.LOCK) {
            attempt.failed(failure, 400, "EntityNotFoundException");
        }
        throw failure;
    }

    /**
     * The table's partition keys (name, Glue type), kept or read now; {@link #NO_TABLE} if the server says there
     * is no such table; null if it would not say (an emulator that checks signatures, as moto with IAM does,
     * refuses the kit's own request), when the request goes as it is.
     */
    static List<Map.Entry<String, String>> of(SdkHttpRequest http, String catalogId, String database, String table) {
        String db = GlueSemantics.storedName(database);
        String name = GlueSemantics.storedName(table);
        String key = endpoint(http) + "|" + db + "|" + name + "|" + catalogId + "|"
                + http.firstMatchingHeader("Authorization").map(a -> a.replaceAll(".*Credential=([^/]*)/.*", "$1"))
                        .orElse("");
        List<Map.Entry<String, String>> kept = KEPT.get(key);
        if (kept != null) {
            return kept;
        }
        List<Map.Entry<String, String>> read = read(http, catalogId, db, name);
        if (read != null && read != NO_TABLE) {
            KEPT.put(key, read);
        }
        return read;
    }

    private static String endpoint(SdkHttpRequest http) {
        return http.protocol() + "://" + http.host() + ":" + http.port();
    }

    private static List<Map.Entry<String, String>> read(SdkHttpRequest http, String catalogId, String database,
                                                        String table) {
        URI endpoint = URI.create(endpoint(http) + "/");
        String body = "{" + (catalogId == null ? "" : "\"CatalogId\":" + SdkJson.quoted(catalogId) + ",")
                + "\"DatabaseName\":" + SdkJson.quoted(database) + ",\"Name\":" + SdkJson.quoted(table) + "}";
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                .header("Content-Type", "application/x-amz-json-1.1")
                .header("X-Amz-Target", "AWSGlue.GetTable")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        http.firstMatchingHeader("Authorization").ifPresent(a -> request.header("Authorization", a));
        HttpResponse<String> answer;
        try {
            answer = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (answer.statusCode() != 200) {
            return "EntityNotFoundException".equals(AwsErrors.errorCode(answer.body())) ? NO_TABLE : null;
        }
        var found = JsonNode.parser().parse(answer.body()).field("Table");
        List<Map.Entry<String, String>> keys = new ArrayList<>();
        found.flatMap(t -> t.field("PartitionKeys")).filter(k -> k.isArray()).ifPresent(k -> k.asArray().forEach(
                key -> keys.add(Map.entry(key.field("Name").map(n -> n.asString()).orElse(""),
                        key.field("Type").filter(n -> n.isString()).map(n -> n.asString()).orElse("string")))));
        return List.copyOf(keys);
    }
}
