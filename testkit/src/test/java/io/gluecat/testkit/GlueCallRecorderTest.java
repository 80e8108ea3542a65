package io.gluecat.testkit;

import static io.gluecat.testkit.MiniStackTest.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.glue.GlueAsyncClient;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.AccessDeniedException;
import software.amazon.awssdk.services.glue.model.AlreadyExistsException;
import software.amazon.awssdk.services.glue.model.ConcurrentModificationException;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;
import software.amazon.awssdk.services.glue.model.InternalServiceException;
import software.amazon.awssdk.services.glue.model.ThrottlingException;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;
import software.amazon.awssdk.services.sts.model.Credentials;
import software.amazon.awssdk.services.sts.model.ExpiredTokenException;
import software.amazon.awssdk.services.sts.model.IdpRejectedClaimException;
import software.amazon.awssdk.services.sts.model.RegionDisabledException;
import software.amazon.awssdk.services.sts.model.StsException;

/** The recorder and its faults against the real MiniStack, through plain SDK clients. */
class GlueCallRecorderTest {

    /** In MiniStack's default account, where the test key's databases are (a role's key acts in the role's account). */
    static final String ROLE = "arn:aws:iam::000000000000:role/gluecat-reader";

    final MiniStack ms = MiniStack.shared();
    final String db = unique("db");
    GlueClient glue;

    @BeforeEach
    void setUp() {
        glue = ms.glue();
        glue.createDatabase(b -> b.databaseInput(d -> d.name(db)));
        GlueCallRecorder.reset();
    }

    @AfterEach
    void tearDown() {
        GlueCallRecorder.reset();
        glue.close();
    }

    @Test
    void recordsOperationCatalogIdNamesAndTheKeyThatSigned() {
        glue.createTable(b -> b.catalogId("123456789012").databaseName(db).tableInput(t -> t.name("t1")));
        glue.getTable(b -> b.databaseName(db).name("t1"));
        glue.getDatabase(b -> b.catalogId("210987654321").name(db));
        assertThrows(EntityNotFoundException.class, () -> glue.getTable(b -> b.databaseName(db).name("missing")));

        List<GlueCall> calls = GlueCallRecorder.calls();
        assertEquals(List.of("CreateTable", "GetTable", "GetDatabase", "GetTable"),
                calls.stream().map(GlueCall::operation).toList());
        GlueCall create = calls.get(0);
        assertEquals(GlueCallRecorder.GLUE, create.service());
        assertEquals("123456789012", create.catalogId());
        assertEquals(db, create.databaseName());
        assertEquals("t1", create.tableName());
        assertEquals(MiniStack.ACCESS_KEY_ID, create.accessKeyId());
        assertFalse(create.sessionToken());
        assertTrue(create.userAgent().contains("aws-sdk-java/"), create.userAgent());
        assertEquals(ms.endpoint().toString(), create.endpoint());
        assertEquals(GlueCall.Outcome.SUCCEEDED, create.outcome());
        assertEquals(200, create.httpStatus());
        assertEquals(1, create.attempt());

        assertNull(calls.get(1).catalogId(), "no CatalogId sent");
        assertEquals("t1", calls.get(1).tableName());
        assertEquals("210987654321", calls.get(2).catalogId());
        assertEquals(db, calls.get(2).databaseName());
        assertNull(calls.get(2).tableName());

        GlueCall missing = calls.get(3);
        assertEquals(GlueCall.Outcome.FAILED, missing.outcome());
        assertEquals("EntityNotFoundException", missing.errorCode());
        assertEquals(EntityNotFoundException.class.getName(), missing.exception());
        assertEquals(400, missing.httpStatus());
        assertNull(missing.injectedFault());

        assertEquals(2, GlueCallRecorder.callsOf("GetTable").size());
        assertEquals(1, GlueCallRecorder.callsOf("glue", "GetDatabase").size());
    }

    @Test
    void recordsAssumeRoleAndFollowsTheReturnedKeyIntoGlue() {
        try (StsClient sts = ms.sts();
             StsAssumeRoleCredentialsProvider role = StsAssumeRoleCredentialsProvider.builder()
                     .stsClient(sts)
                     .refreshRequest(r -> r.roleArn(ROLE).roleSessionName("gluecat-test").externalId("ext-42"))
                     .build();
             GlueClient asRole = ms.configure(GlueClient.builder()).credentialsProvider(role).build()) {
            asRole.getDatabase(b -> b.name(db));
        }
        GlueCall assume = GlueCallRecorder.callsOf(GlueCallRecorder.STS, "AssumeRole").get(0);
        assertEquals(MiniStack.ACCESS_KEY_ID, assume.accessKeyId());
        assertEquals(ROLE, assume.assumeRole().roleArn());
        assertEquals("ext-42", assume.assumeRole().externalId());
        assertEquals("gluecat-test", assume.assumeRole().roleSessionName());
        String roleKey = assume.assumeRole().returnedAccessKeyId();
        assertNotNull(roleKey);

        GlueCall get = GlueCallRecorder.callsOf("GetDatabase").get(0);
        assertEquals(roleKey, get.accessKeyId());
        assertTrue(get.sessionToken());
        assertTrue(assume.sequence() < get.sequence());
    }

    @Test
    void noSecretOrTokenAppearsInAnyRecord() {
        Credentials roleCredentials;
        try (StsClient sts = ms.sts()) {
            roleCredentials = sts.assumeRole(b -> b.roleArn(ROLE).roleSessionName("s").externalId("e")).credentials();
        }
        try (StsAssumeRoleCredentialsProvider role = StsAssumeRoleCredentialsProvider.builder()
                     .stsClient(ms.sts()).refreshRequest(r -> r.roleArn(ROLE).roleSessionName("s2")).build();
             GlueClient asRole = ms.configure(GlueClient.builder()).credentialsProvider(role).build()) {
            asRole.getDatabase(b -> b.name(db));
            assertThrows(EntityNotFoundException.class, () -> asRole.getTable(b -> b.databaseName(db).name("nope")));
        }
        try (Fault.Handle ignored = GlueCallRecorder.inject(Fault.glue("GetDatabases").accessDenied().build())) {
            assertThrows(AccessDeniedException.class, () -> glue.getDatabases(b -> { }));
        }
        List<GlueCall> calls = GlueCallRecorder.calls();
        assertTrue(calls.size() >= 5, calls.toString());
        for (GlueCall call : calls) {
            String text = call.toString();
            assertFalse(text.contains(MiniStack.SECRET_ACCESS_KEY), text);
            assertFalse(text.contains(roleCredentials.secretAccessKey()), text);
            assertFalse(text.contains(roleCredentials.sessionToken()), text);
            assertFalse(text.contains("Signature="), text);
        }
    }

    // ------------------------------------------------------------------ faults

    record Expected(String name, Function<Fault.Builder, Fault.Builder> fault, boolean sts,
                    Class<? extends AwsServiceException> type, String code, int status) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> faultKinds() {
        List<Expected> kinds = List.of(
                new Expected("glue access denied", Fault.Builder::accessDenied, false, AccessDeniedException.class, "AccessDeniedException", 400),
                new Expected("glue not found", Fault.Builder::entityNotFound, false, EntityNotFoundException.class, "EntityNotFoundException", 400),
                new Expected("glue already exists", Fault.Builder::alreadyExists, false, AlreadyExistsException.class, "AlreadyExistsException", 400),
                new Expected("glue concurrent modification", Fault.Builder::concurrentModification, false, ConcurrentModificationException.class, "ConcurrentModificationException", 400),
                new Expected("glue throttling", Fault.Builder::throttling, false, ThrottlingException.class, "ThrottlingException", 400),
                new Expected("glue 500", Fault.Builder::internalError, false, InternalServiceException.class, "InternalServiceException", 500),
                new Expected("sts access denied", Fault.Builder::accessDenied, true, StsException.class, "AccessDenied", 403),
                new Expected("sts throttling", Fault.Builder::throttling, true, StsException.class, "Throttling", 400),
                new Expected("sts expired token", f -> f.error("ExpiredTokenException", 400), true, ExpiredTokenException.class, "ExpiredTokenException", 400),
                new Expected("sts region disabled", f -> f.error("RegionDisabledException", 403), true, RegionDisabledException.class, "RegionDisabledException", 403),
                new Expected("sts code named unlike its class", f -> f.error("IDPRejectedClaim", 403).exceptionClass(IdpRejectedClaimException.class), true, IdpRejectedClaimException.class, "IDPRejectedClaim", 403));
        return kinds.stream().flatMap(k -> Stream.of(Arguments.of(k, Fault.Phase.BEFORE_SEND), Arguments.of(k, Fault.Phase.AFTER_RESPONSE)));
    }

    /** Exactly what AWS would give: class, code, status; in both phases (the second is the SDK's own unmarshalling). */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("faultKinds")
    void eachFaultSurfacesAsTheExceptionAwsWouldGive(Expected expected, Fault.Phase phase) {
        String operation = expected.sts() ? "AssumeRole" : "GetDatabase";
        Fault fault = expected.fault().apply(expected.sts() ? Fault.sts(operation) : Fault.glue(operation)).phase(phase).build();
        GlueCallRecorder.inject(fault);
        AwsServiceException e;
        // No SDK retries here, so retryable errors surface at once.
        if (expected.sts()) {
            try (StsClient sts = ms.configure(StsClient.builder())
                    .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry())).build()) {
                e = assertThrows(AwsServiceException.class, () -> sts.assumeRole(b -> b.roleArn(ROLE).roleSessionName("s")));
            }
        } else {
            try (GlueClient noRetry = ms.configure(GlueClient.builder())
                    .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry())).build()) {
                e = assertThrows(AwsServiceException.class, () -> noRetry.getDatabase(b -> b.name(db)));
            }
        }
        assertSame(expected.type(), e.getClass(), e.toString());
        assertEquals(expected.code(), e.awsErrorDetails().errorCode());
        assertEquals(expected.status(), e.statusCode());
        assertTrue(e.getMessage().contains(expected.code()), e.getMessage());
        assertEquals(expected.code().startsWith("Throttling"), e.isThrottlingException());

        GlueCall call = GlueCallRecorder.callsOf(operation).get(0);
        assertEquals(GlueCall.Outcome.FAILED, call.outcome());
        assertEquals(expected.code(), call.errorCode());
        assertEquals(expected.status(), call.httpStatus());
        assertEquals(expected.type().getName(), call.exception());
        assertEquals(fault.toString(), call.injectedFault());
    }

    @Test
    void retryableFaultsFiringOnceAreRetriedBySdkAndInvisibleToTheCaller() {
        GlueCallRecorder.inject(Fault.glue("GetDatabase").throttling().build());
        GlueCallRecorder.inject(Fault.glue("GetTables").internalError().afterResponse().build());
        GlueCallRecorder.inject(Fault.glue("GetDatabases").connectionReset().build());

        assertEquals(db, glue.getDatabase(b -> b.name(db)).database().name());
        glue.getTables(b -> b.databaseName(db));
        glue.getDatabases(b -> { });

        for (String operation : List.of("GetDatabase", "GetTables", "GetDatabases")) {
            List<GlueCall> attempts = GlueCallRecorder.callsOf(operation);
            assertEquals(2, attempts.size(), attempts.toString());
            assertEquals(GlueCall.Outcome.RETRIED, attempts.get(0).outcome());
            assertNotNull(attempts.get(0).injectedFault());
            assertEquals(GlueCall.Outcome.SUCCEEDED, attempts.get(1).outcome());
            assertEquals(2, attempts.get(1).attempt());
            assertNull(attempts.get(1).injectedFault());
        }
        assertEquals("ThrottlingException", GlueCallRecorder.callsOf("GetDatabase").get(0).errorCode());
        assertEquals(500, GlueCallRecorder.callsOf("GetTables").get(0).httpStatus());
    }

    @Test
    void retryableFaultOnEveryAttemptSurfacesAfterTheSdksLastAttempt() {
        Fault.Handle handle = GlueCallRecorder.inject(Fault.glue("GetDatabase").internalError().always().build());

        InternalServiceException e = assertThrows(InternalServiceException.class, () -> glue.getDatabase(b -> b.name(db)));

        List<GlueCall> attempts = GlueCallRecorder.callsOf("GetDatabase");
        assertTrue(attempts.size() > 1, "the SDK retried a 500");
        assertEquals(attempts.size(), handle.fired());
        assertTrue(e.getMessage().contains("SDK Attempt Count: " + attempts.size()), e.getMessage());
        assertEquals(GlueCall.Outcome.FAILED, attempts.get(attempts.size() - 1).outcome());
        attempts.subList(0, attempts.size() - 1).forEach(a -> assertEquals(GlueCall.Outcome.RETRIED, a.outcome()));

        handle.close();
        glue.getDatabase(b -> b.name(db));
    }

    @Test
    void connectionResetLooksLikeARealOne() {
        GlueCallRecorder.inject(Fault.glue("GetDatabase").connectionReset().always().build());
        try (GlueClient noRetry = ms.configure(GlueClient.builder())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry())).build()) {
            SdkClientException e = assertThrows(SdkClientException.class, () -> noRetry.getDatabase(b -> b.name(db)));
            assertInstanceOf(SocketException.class, e.getCause());
            assertTrue(e.getMessage().startsWith("Unable to execute HTTP request: Connection reset"), e.getMessage());
        }
    }

    @Test
    void targetsTheNthMatchingCallAndCallsMatchingAPredicate() {
        glue.createTable(b -> b.databaseName(db).tableInput(t -> t.name("t1")));
        glue.createTable(b -> b.databaseName(db).tableInput(t -> t.name("t2")));
        Fault.Handle second = GlueCallRecorder.inject(Fault.glue("UpdateTable").onCall(2).concurrentModification().build());
        GlueCallRecorder.inject(Fault.glue("GetTable").when(c -> "t2".equals(c.tableName())).always().entityNotFound().build());

        glue.updateTable(b -> b.databaseName(db).versionId("1").tableInput(t -> t.name("t1").description("a")));
        assertThrows(ConcurrentModificationException.class,
                () -> glue.updateTable(b -> b.databaseName(db).versionId("2").tableInput(t -> t.name("t1").description("b"))));
        glue.updateTable(b -> b.databaseName(db).versionId("2").tableInput(t -> t.name("t1").description("c")));
        assertEquals(3, second.matched());
        assertEquals(1, second.fired());

        assertEquals("c", glue.getTable(b -> b.databaseName(db).name("t1")).table().description());
        assertThrows(EntityNotFoundException.class, () -> glue.getTable(b -> b.databaseName(db).name("t2")));
        assertThrows(EntityNotFoundException.class, () -> glue.getTable(b -> b.databaseName(db).name("t2")));
        assertEquals("3", glue.getTable(b -> b.databaseName(db).name("t1")).table().versionId());
    }

    @Test
    void afterResponseLeavesTheServerSideChangeApplied() {
        GlueCallRecorder.inject(Fault.glue("CreateTable").accessDenied().afterResponse().build());
        assertThrows(AccessDeniedException.class, () -> glue.createTable(b -> b.databaseName(db).tableInput(t -> t.name("applied"))));
        glue.getTable(b -> b.databaseName(db).name("applied"));

        GlueCallRecorder.inject(Fault.glue("CreateTable").accessDenied().beforeSend().build());
        assertThrows(AccessDeniedException.class, () -> glue.createTable(b -> b.databaseName(db).tableInput(t -> t.name("never_sent"))));
        assertThrows(EntityNotFoundException.class, () -> glue.getTable(b -> b.databaseName(db).name("never_sent")));

        // A reset after the server applied a create: the SDK retries, and the retry finds the table there.
        GlueCallRecorder.inject(Fault.glue("CreateTable").connectionReset().afterResponse().build());
        assertThrows(AlreadyExistsException.class, () -> glue.createTable(b -> b.databaseName(db).tableInput(t -> t.name("twice"))));
        assertEquals(2, GlueCallRecorder.callsOf("CreateTable").stream().filter(c -> "twice".equals(c.tableName())).count());
    }

    @Test
    void faultsWorkOnAsyncClientsToo() {
        try (GlueAsyncClient async = ms.configure(GlueAsyncClient.builder())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry())).build()) {
            GlueCallRecorder.inject(Fault.glue("GetDatabase").entityNotFound().afterResponse().build());
            CompletionException after = assertThrows(CompletionException.class, () -> async.getDatabase(b -> b.name(db)).join());
            assertInstanceOf(EntityNotFoundException.class, after.getCause());

            GlueCallRecorder.inject(Fault.glue("GetDatabase").accessDenied().build());
            CompletionException before = assertThrows(CompletionException.class, () -> async.getDatabase(b -> b.name(db)).join());
            assertInstanceOf(AccessDeniedException.class, before.getCause());

            assertEquals(db, async.getDatabase(b -> b.name(db)).join().database().name());
            assertEquals(List.of(GlueCall.Outcome.FAILED, GlueCall.Outcome.FAILED, GlueCall.Outcome.SUCCEEDED),
                    GlueCallRecorder.callsOf("GetDatabase").stream().map(GlueCall::outcome).toList());
        }
    }

    @Test
    void clearFaultsDisarmsEverything() {
        GlueCallRecorder.inject(Fault.glue(null).accessDenied().always().build());
        assertThrows(AccessDeniedException.class, () -> glue.getDatabase(b -> b.name(db)));
        assertThrows(AccessDeniedException.class, () -> glue.getTables(b -> b.databaseName(db)));
        GlueCallRecorder.clearFaults();
        glue.getDatabase(b -> b.name(db));
        GlueCallRecorder.clear();
        assertEquals(List.of(), GlueCallRecorder.calls());
    }

    /** A new database holding tables t0 to t4. */
    private String databaseOfFiveTables(String prefix) {
        String db = unique(prefix);
        glue.createDatabase(b -> b.databaseInput(d -> d.name(db)));
        for (int i = 0; i < 5; i++) {
            String name = "t" + i;
            glue.createTable(b -> b.databaseName(db).tableInput(t -> t.name(name)));
        }
        return db;
    }

    @Test
    void pagedListingsComeInPagesWithTokensUntilEverythingWasSeen() throws Exception {
        String db = databaseOfFiveTables("paged");
        try (AutoCloseable paging = GlueCallRecorder.pageListings(2)) {
            GlueCallRecorder.clear();
            var first = glue.getTables(b -> b.databaseName(db));
            assertEquals(2, first.tableList().size());
            assertNotNull(first.nextToken());
            var second = glue.getTables(b -> b.databaseName(db).nextToken(first.nextToken()));
            var third = glue.getTables(b -> b.databaseName(db).nextToken(second.nextToken()));
            assertEquals(List.of("t2", "t3"), second.tableList().stream().map(t -> t.name()).toList());
            assertEquals(List.of("t4"), third.tableList().stream().map(t -> t.name()).toList());
            assertNull(third.nextToken());
            assertEquals(3, GlueCallRecorder.callsOf("GetTables").size());
            // the record shows the token as the caller sent it, before the kit took its own token out
            assertEquals(java.util.Arrays.asList(null, first.nextToken(), second.nextToken()),
                    GlueCallRecorder.callsOf("GetTables").stream().map(GlueCall::nextToken).toList());
            // every database in the account, page by page, through the SDK's own paginator
            assertTrue(glue.getDatabasesPaginator(b -> { }).stream().flatMap(p -> p.databaseList().stream())
                    .anyMatch(d -> d.name().equals(db)));
        }
        assertNull(glue.getTables(b -> b.databaseName(db)).nextToken(), "unpaged again once closed");
    }

    @Test
    void laterPagesOfATableListingAreCutFromItsFirstAnswer() throws Exception {
        String db = databaseOfFiveTables("kept");
        try (AutoCloseable paging = GlueCallRecorder.pageListings(2)) {
            var first = glue.getTables(b -> b.databaseName(db));
            // a table created after the first page is not in this listing: its later pages come from the first
            // answer, while their requests ask the server for no table at all
            glue.createTable(b -> b.databaseName(db).tableInput(t -> t.name("t5")));
            List<String> names = new ArrayList<>(first.tableList().stream().map(t -> t.name()).toList());
            String token = first.nextToken();
            while (token != null) {
                String next = token;
                var page = glue.getTables(b -> b.databaseName(db).nextToken(next));
                page.tableList().forEach(t -> names.add(t.name()));
                token = page.nextToken();
            }
            assertEquals(List.of("t0", "t1", "t2", "t3", "t4"), names);
            // a new listing sees the new table; one with the caller's own filter is cut from full answers
            assertEquals(6, glue.getTablesPaginator(b -> b.databaseName(db)).stream()
                    .mapToLong(p -> p.tableList().size()).sum());
            assertEquals(List.of("t0", "t1", "t2", "t3", "t4", "t5"), glue.getTablesPaginator(b -> b.databaseName(db)
                    .expression("t*")).stream().flatMap(p -> p.tableList().stream()).map(t -> t.name()).toList());
        }
    }

    @Test
    void recordsMaxResultsAsSent() {
        String db = unique("maxresults");
        glue.createDatabase(b -> b.databaseInput(d -> d.name(db)));
        GlueCallRecorder.clear();
        glue.getTables(b -> b.databaseName(db).maxResults(7));
        glue.getTables(b -> b.databaseName(db));
        assertEquals(java.util.Arrays.asList(7, null),
                GlueCallRecorder.callsOf("GetTables").stream().map(GlueCall::maxResults).toList());
    }

    @Test
    void delayedCallsStillReachTheServerOnceEach() throws Exception {
        String db = unique("delayed");
        try (AutoCloseable delay = GlueCallRecorder.delayEachCall(5)) {
            GlueCallRecorder.clear();
            glue.createDatabase(b -> b.databaseInput(d -> d.name(db)));
            assertEquals(db, glue.getDatabase(b -> b.name(db)).database().name());
        }
        assertEquals(List.of("CreateDatabase", "GetDatabase"),
                GlueCallRecorder.calls().stream().map(GlueCall::operation).toList());
        assertThrows(IllegalArgumentException.class, () -> GlueCallRecorder.delayEachCall(-1));
    }

    // ------------------------------------------------------------------ GetPartitions as Glue answers it

    /** A table partitioned by (region string, year int) with the given partitions, created 100 per call. */
    private String partitionedTable(List<List<String>> values) {
        String table = unique("parts");
        glue.createTable(b -> b.databaseName(db).tableInput(t -> t.name(table).partitionKeys(
                k -> k.name("region").type("string"), k -> k.name("year").type("int"))));
        for (int from = 0; from < values.size(); from += 100) {
            List<software.amazon.awssdk.services.glue.model.PartitionInput> page = values
                    .subList(from, Math.min(values.size(), from + 100)).stream()
                    .map(v -> software.amazon.awssdk.services.glue.model.PartitionInput.builder().values(v).build())
                    .toList();
            glue.batchCreatePartition(b -> b.databaseName(db).tableName(table).partitionInputList(page));
        }
        return table;
    }

    private static List<List<String>> values(software.amazon.awssdk.services.glue.model.GetPartitionsResponse answer) {
        return answer.partitions().stream().map(p -> p.values()).toList();
    }

    @Test
    void partitionsAreFilteredByTheExpressionTypedByTheTablesKeys() throws Exception {
        String table = partitionedTable(List.of(List.of("eu", "9"), List.of("eu", "10"), List.of("us", "2024")));
        try (AutoCloseable asGlue = GlueCallRecorder.filterAndPagePartitions()) {
            GlueCallRecorder.clear();
            assertEquals(List.of(List.of("eu", "9")), values(glue.getPartitions(b -> b.databaseName(db)
                    .tableName(table).expression("(region = 'eu') AND (year < 10)"))));
            assertEquals(List.of(List.of("eu", "10"), List.of("us", "2024")), values(glue.getPartitions(b -> b
                    .databaseName(db).tableName(table).expression("year BETWEEN '10' AND 2024 OR region IN ('x')"))));
            assertEquals(3, glue.getPartitions(b -> b.databaseName(db).tableName(table)).partitions().size());
            List<GlueCall> calls = GlueCallRecorder.callsOf("GetPartitions");
            assertEquals(java.util.Arrays.asList(1, 2, 3), calls.stream().map(GlueCall::returned).toList());
            assertEquals("(region = 'eu') AND (year < 10)", calls.get(0).expression());
        }
        assertEquals(3, glue.getPartitions(b -> b.databaseName(db).tableName(table).expression("year = 9"))
                .partitions().size(), "MiniStack itself ignores the expression once the emulation is off");
    }

    @Test
    void anExpressionGlueCannotReadIsRefusedWithInvalidInputBeforeItIsSent() throws Exception {
        String table = partitionedTable(List.of(List.of("eu", "9")));
        try (AutoCloseable asGlue = GlueCallRecorder.filterAndPagePartitions()) {
            GlueCallRecorder.clear();
            software.amazon.awssdk.services.glue.model.InvalidInputException malformed = assertThrows(
                    software.amazon.awssdk.services.glue.model.InvalidInputException.class, () -> glue.getPartitions(
                            b -> b.databaseName(db).tableName(table).expression("region = 'eu' AND (")));
            assertEquals("InvalidInputException", malformed.awsErrorDetails().errorCode());
            assertEquals(400, malformed.statusCode());
            assertTrue(malformed.getMessage().contains("region = 'eu' AND ("), malformed.getMessage());
            assertThrows(software.amazon.awssdk.services.glue.model.InvalidInputException.class, () -> glue
                    .getPartitions(b -> b.databaseName(db).tableName(table).expression("year = 'nine'")));
            List<GlueCall> calls = GlueCallRecorder.callsOf("GetPartitions");
            assertEquals(2, calls.size(), "not retried");
            calls.forEach(c -> assertEquals("InvalidInputException", c.errorCode()));
            calls.forEach(c -> assertEquals(GlueCall.Outcome.FAILED, c.outcome()));
        }
    }

    @Test
    void partitionsComeInPagesOfMaxResultsOrAThousand() throws Exception {
        List<List<String>> all = new ArrayList<>();
        for (int i = 0; i < 1_001; i++) {
            all.add(List.of(i % 2 == 0 ? "eu" : "us", String.valueOf(i)));
        }
        String table = partitionedTable(all);
        try (AutoCloseable asGlue = GlueCallRecorder.filterAndPagePartitions()) {
            var first = glue.getPartitions(b -> b.databaseName(db).tableName(table));
            assertEquals(1_000, first.partitions().size());
            var second = glue.getPartitions(b -> b.databaseName(db).tableName(table).nextToken(first.nextToken()));
            assertEquals(1, second.partitions().size());
            assertNull(second.nextToken());
            assertEquals(List.of("eu", "1000"), second.partitions().get(0).values());
            assertEquals(table, GlueCallRecorder.callsOf("GetPartitions").get(1).tableName(), "recorded as sent");
            // MaxResults pages a filtered answer; the SDK's paginator follows the tokens
            GlueCallRecorder.clear();
            List<List<String>> us = glue.getPartitionsPaginator(b -> b.databaseName(db).tableName(table)
                    .expression("region = 'us' AND year < 9").maxResults(3)).stream()
                    .flatMap(p -> p.partitions().stream()).map(p -> p.values()).toList();
            assertEquals(List.of(List.of("us", "1"), List.of("us", "3"), List.of("us", "5"), List.of("us", "7")),
                    us.stream().sorted(java.util.Comparator.comparing(v -> Integer.parseInt(v.get(1)))).toList());
            assertEquals(List.of(3, 1), GlueCallRecorder.callsOf("GetPartitions").stream().map(GlueCall::returned)
                    .toList());
            // with Glue's segments too: together the segments hold every partition once
            try (AutoCloseable segments = GlueCallRecorder.segmentPartitions()) {
                java.util.Set<List<String>> seen = new java.util.HashSet<>();
                for (int n = 0; n < 4; n++) {
                    int number = n;
                    glue.getPartitionsPaginator(b -> b.databaseName(db).tableName(table).maxResults(100)
                            .segment(g -> g.segmentNumber(number).totalSegments(4))).stream()
                            .flatMap(p -> p.partitions().stream()).forEach(p -> assertTrue(seen.add(p.values())));
                }
                assertEquals(1_001, seen.size());
            }
        }
    }
}
