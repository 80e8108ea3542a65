package io.gluecat.testkit;

/**
 * One HTTP attempt of a Glue or STS call, as {@link GlueCallRecorder} saw it leave the SDK.
 *
 * <p>An SDK retry is a new record with {@code attempt} one higher, so a call the SDK retried twice
 * shows up three times. Holds no secrets: only the access key id and whether a session token was
 * sent, never the secret key or the token itself.
 *
 * @param sequence      JVM-wide order in which the attempts were sent
 * @param service       the SDK's service name: {@code "Glue"} or {@code "Sts"}
 * @param operation     the API operation, e.g. {@code "UpdateTable"}
 * @param attempt       1 for the first try, 2.. for the SDK's retries
 * @param endpoint      scheme, host and port the request was sent to
 * @param catalogId     the request's {@code CatalogId}; null when not set or the operation has none
 * @param databaseName  the database the request names ({@code DatabaseName}, else the
 *                      {@code Name}/{@code DatabaseInput.Name} of a database operation); null if none
 * @param tableName     the table the request names ({@code TableName}, {@code TableInput.Name}, or
 *                      {@code Name} next to a {@code DatabaseName}); null if none
 * @param versionId     the request's {@code VersionId} (UpdateTable), null if it has none
 * @param skipArchive   the request's {@code SkipArchive} (UpdateTable), null if it has none
 * @param accessKeyId   the access key id in the request's SigV4 {@code Authorization} header; null if unsigned
 * @param sessionToken  whether the request carried an {@code X-Amz-Security-Token} header
 * @param userAgent     the {@code User-Agent} header
 * @param outcome       how the attempt ended
 * @param httpStatus    the HTTP status the SDK saw (after any injected fault); null if no response
 * @param errorCode     the AWS error code the SDK saw, e.g. {@code "EntityNotFoundException"}; null on success
 * @param exception     class name of the exception the attempt ended in; known for injected faults and
 *                      for the attempt whose exception reached the caller, null otherwise
 * @param injectedFault description of the {@link Fault} that fired on this attempt; null if none did
 * @param assumeRole    for STS {@code AssumeRole}: the role asked for and the key it returned; else null
 * @param maxResults    the request's {@code MaxResults} (listings such as GetTables), null if not set
 * @param nextToken     the request's {@code NextToken} as the caller sent it (a token of
 *                      {@link GlueSemantics#pageListings(int)} included), null if not set
 * @param expression    the request's {@code Expression} (GetPartitions, GetTables), null if not set
 * @param segment       the request's {@code Segment} (GetPartitions) as "number/total", null if not set
 * @param returned      how many entries the answer of a listing (GetPartitions, GetTables, GetDatabases) held as
 *                      the caller got it (after the kit's paging and filtering); null for other calls and failures
 */
public record GlueCall(
        long sequence,
        String service,
        String operation,
        int attempt,
        String endpoint,
        String catalogId,
        String databaseName,
        String tableName,
        String versionId,
        Boolean skipArchive,
        String accessKeyId,
        boolean sessionToken,
        String userAgent,
        Outcome outcome,
        Integer httpStatus,
        String errorCode,
        String exception,
        String injectedFault,
        AssumeRole assumeRole,
        Integer maxResults,
        String nextToken,
        String expression,
        String segment,
        Integer returned) {

    /** How an attempt ended. */
    public enum Outcome {
        /** The response was unmarshalled into a result. */
        SUCCEEDED,
        /** The attempt failed and its exception reached the caller. */
        FAILED,
        /** The attempt failed and the SDK's retry policy sent another attempt. */
        RETRIED,
        /** Sent, no outcome yet (only seen in snapshots taken while a call runs). */
        IN_FLIGHT
    }

    /**
     * What an STS {@code AssumeRole} asked for and got.
     *
     * @param roleArn               the {@code RoleArn} requested
     * @param externalId            the {@code ExternalId} sent; null if none
     * @param roleSessionName       the {@code RoleSessionName} sent
     * @param returnedAccessKeyId   access key id of the returned credentials; null until it succeeded
     */
    public record AssumeRole(String roleArn, String externalId, String roleSessionName, String returnedAccessKeyId) {
    }

    public boolean succeeded() {
        return outcome == Outcome.SUCCEEDED;
    }

    public boolean isGlue() {
        return GlueCallRecorder.GLUE.equals(service);
    }

    public boolean isSts() {
        return GlueCallRecorder.STS.equals(service);
    }
}
