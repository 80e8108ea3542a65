package io.gluecat.testkit;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * The mutable record of one HTTP attempt, shared by the parts of {@link GlueCallRecorder}'s interceptor: the
 * recorder creates and completes it, {@link GlueFaults} marks what it injected, {@link GlueSemantics} what it
 * answered itself. Fields after construction are guarded by {@link GlueCallRecorder#LOCK}, so a snapshot
 * ({@link #toCall()}) is never half-updated.
 */
final class Attempt {

    /** The current attempt of an execution; a retry replaces it. */
    static final ExecutionAttribute<Attempt> CURRENT =
            new ExecutionAttribute<>("io.gluecat.testkit.Attempt.current");
    /** The NextToken the caller sent, kept before a stand-in takes its own token out of the request. */
    static final ExecutionAttribute<String> SENT_TOKEN =
            new ExecutionAttribute<>("io.gluecat.testkit.Attempt.sentToken");
    /** The table the caller named, where a stand-in sends another name instead. */
    static final ExecutionAttribute<String> SENT_TABLE =
            new ExecutionAttribute<>("io.gluecat.testkit.Attempt.sentTable");

    private static final Pattern CREDENTIAL = Pattern.compile("Credential=([^/,\\s]+)/");

    final String service;
    final String operation;
    final int attempt;
    final String endpoint;
    final String catalogId;
    final String databaseName;
    final String tableName;
    final String accessKeyId;
    final boolean sessionToken;
    final String userAgent;
    final String roleArn;
    final String externalId;
    final String roleSessionName;
    final String versionId;
    final Boolean skipArchive;
    final Integer maxResults;
    final String nextToken;
    final String expression;
    final String segment;

    long sequence;
    GlueCall.Outcome outcome = GlueCall.Outcome.IN_FLIGHT;
    Integer httpStatus;
    String errorCode;
    String exception;
    String injected;
    String returnedAccessKeyId;
    Integer returned;
    /** Set by {@link GlueFaults}: the fault whose error response replaces the real one, and that response's body. */
    Fault rewrite;
    byte[] rewriteBody;
    /** Set by {@link GlueSemantics}: the answer the kit gives instead of MiniStack's (BatchDeletePartition). */
    byte[] emulatedBody;

    Attempt(String service, String operation, int attempt, SdkRequest request, SdkHttpRequest http,
            String sentToken, String sentTable) {
        this.service = service;
        this.operation = operation;
        this.attempt = attempt;
        this.endpoint = http.protocol() + "://" + http.host() + ":" + http.port();
        this.catalogId = string(field(request, "CatalogId"));
        this.accessKeyId = http.firstMatchingHeader("Authorization")
                .map(CREDENTIAL::matcher).filter(Matcher::find).map(m -> m.group(1)).orElse(null);
        this.sessionToken = http.firstMatchingHeader("X-Amz-Security-Token").isPresent();
        this.userAgent = http.firstMatchingHeader("User-Agent").orElse(null);

        boolean glue = GlueCallRecorder.GLUE.equals(service);
        String database = glue ? string(field(request, "DatabaseName")) : null;
        String table = glue ? string(field(request, "TableName")) : null;
        if (glue && table == null) {
            table = string(field(field(request, "TableInput"), "Name"));
        }
        if (glue && table == null && database != null && operation != null && operation.contains("Table")) {
            table = string(field(request, "Name"));             // GetTable, DeleteTable
        }
        if (glue && database == null && operation != null && operation.contains("Database")) {
            database = string(field(request, "Name"));          // GetDatabase, UpdateDatabase, DeleteDatabase
            if (database == null) {
                database = string(field(field(request, "DatabaseInput"), "Name"));   // CreateDatabase
            }
        }
        this.databaseName = database;
        this.tableName = sentTable != null ? sentTable : table;
        this.versionId = glue ? string(field(request, "VersionId")) : null;            // UpdateTable
        Object skip = glue ? field(request, "SkipArchive") : null;
        this.skipArchive = skip instanceof Boolean ? (Boolean) skip : null;
        Object max = field(request, "MaxResults");
        this.maxResults = max instanceof Integer ? (Integer) max : null;
        this.nextToken = sentToken != null ? sentToken : string(field(request, "NextToken"));
        this.expression = glue ? string(field(request, "Expression")) : null;
        Object segment = glue ? field(request, "Segment") : null;
        this.segment = segment == null ? null
                : field(segment, "SegmentNumber") + "/" + field(segment, "TotalSegments");

        boolean sts = GlueCallRecorder.STS.equals(service);
        this.roleArn = sts ? string(field(request, "RoleArn")) : null;
        this.externalId = sts ? string(field(request, "ExternalId")) : null;
        this.roleSessionName = sts ? string(field(request, "RoleSessionName")) : null;
    }

    /** Called with LOCK held. */
    void failed(Throwable failure, Integer status, String code) {
        outcome = GlueCall.Outcome.FAILED;
        exception = failure.getClass().getName();
        httpStatus = status;
        errorCode = code;
    }

    Fault rewrite() {
        synchronized (GlueCallRecorder.LOCK) {
            return rewrite;
        }
    }

    byte[] rewriteBody() {
        synchronized (GlueCallRecorder.LOCK) {
            return rewriteBody;
        }
    }

    /** Called with LOCK held. */
    GlueCall toCall() {
        GlueCall.AssumeRole assumeRole = roleArn == null ? null
                : new GlueCall.AssumeRole(roleArn, externalId, roleSessionName, returnedAccessKeyId);
        return new GlueCall(sequence, service, operation, attempt, endpoint, catalogId, databaseName, tableName,
                versionId, skipArchive, accessKeyId, sessionToken, userAgent, outcome, httpStatus, errorCode, exception, injected,
                assumeRole, maxResults, nextToken, expression, segment, returned);
    }

    /** A member of a request/response/nested model object by its AWS name, or null. */
    static Object field(Object pojo, String name) {
        if (pojo instanceof SdkPojo p) {
            for (SdkField<?> f : p.sdkFields()) {
                if (f.memberName().equals(name)) {
                    return f.getValueOrDefault(pojo);
                }
            }
        }
        return null;
    }

    static String string(Object value) {
        return value instanceof String s ? s : null;
    }
}
