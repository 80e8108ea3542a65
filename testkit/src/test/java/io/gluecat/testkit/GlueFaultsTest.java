package io.gluecat.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.SocketException;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.stream.Stream;
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
import software.amazon.awssdk.services.sts.model.ExpiredTokenException;
import software.amazon.awssdk.services.sts.model.IdpRejectedClaimException;
import software.amazon.awssdk.services.sts.model.RegionDisabledException;
import software.amazon.awssdk.services.sts.model.StsException;

/** Injected faults as the SDK's callers see them, against the real MiniStack, through plain SDK clients. */
class GlueFaultsTest extends GlueKitTest {

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
        GlueFaults.inject(fault);
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
        GlueFaults.inject(Fault.glue("GetDatabase").throttling().build());
        GlueFaults.inject(Fault.glue("GetTables").internalError().afterResponse().build());
        GlueFaults.inject(Fault.glue("GetDatabases").connectionReset().build());

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
        Fault.Handle handle = GlueFaults.inject(Fault.glue("GetDatabase").internalError().always().build());

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

    /** A steady share of attempts, as Glue throttles at load: its shape, about its share, the same attempts per seed. */
    @Test
    void aShareOfAttemptsIsThrottledAsGlueDoesTheSameOnesForTheSameSeed() {
        List<List<Integer>> runs = new java.util.ArrayList<>();
        try (GlueClient noRetry = ms.configure(GlueClient.builder())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry())).build()) {
            for (int run = 0; run < 2; run++) {
                List<Integer> throttled = new java.util.ArrayList<>();
                try (Fault.Handle h = GlueFaults.inject(Fault.glue("GetDatabase").rateExceeded().always().share(0.3, 42).build())) {
                    for (int i = 0; i < 100; i++) {
                        try {
                            noRetry.getDatabase(b -> b.name(db));
                        } catch (ThrottlingException e) {
                            assertEquals(400, e.statusCode());
                            assertEquals("ThrottlingException", e.awsErrorDetails().errorCode());
                            assertEquals("Rate exceeded", e.awsErrorDetails().errorMessage());
                            assertTrue(e.isThrottlingException());
                            throttled.add(i);
                        }
                    }
                    assertEquals(100, h.matched());
                    assertEquals(throttled.size(), h.fired());
                }
                runs.add(throttled);
            }
            try (Fault.Handle other = GlueFaults.inject(Fault.glue("GetDatabase").rateExceeded().always().share(0.3, 43).build())) {
                List<Integer> throttled = new java.util.ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    try {
                        noRetry.getDatabase(b -> b.name(db));
                    } catch (ThrottlingException e) {
                        throttled.add(i);
                    }
                }
                runs.add(throttled);
            }
        }
        assertTrue(runs.get(0).size() >= 15 && runs.get(0).size() <= 45, "about 30 of 100: " + runs.get(0));
        assertEquals(runs.get(0), runs.get(1), "the same seed throttles the same attempts");
        assertTrue(!runs.get(0).equals(runs.get(2)), "another seed, other attempts");
    }

    @Test
    void connectionResetLooksLikeARealOne() {
        GlueFaults.inject(Fault.glue("GetDatabase").connectionReset().always().build());
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
        Fault.Handle second = GlueFaults.inject(Fault.glue("UpdateTable").onCall(2).concurrentModification().build());
        GlueFaults.inject(Fault.glue("GetTable").when(c -> "t2".equals(c.tableName())).always().entityNotFound().build());

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
        GlueFaults.inject(Fault.glue("CreateTable").accessDenied().afterResponse().build());
        assertThrows(AccessDeniedException.class, () -> glue.createTable(b -> b.databaseName(db).tableInput(t -> t.name("applied"))));
        glue.getTable(b -> b.databaseName(db).name("applied"));

        GlueFaults.inject(Fault.glue("CreateTable").accessDenied().beforeSend().build());
        assertThrows(AccessDeniedException.class, () -> glue.createTable(b -> b.databaseName(db).tableInput(t -> t.name("never_sent"))));
        assertThrows(EntityNotFoundException.class, () -> glue.getTable(b -> b.databaseName(db).name("never_sent")));

        // A reset after the server applied a create: the SDK retries, and the retry finds the table there.
        GlueFaults.inject(Fault.glue("CreateTable").connectionReset().afterResponse().build());
        assertThrows(AlreadyExistsException.class, () -> glue.createTable(b -> b.databaseName(db).tableInput(t -> t.name("twice"))));
        assertEquals(2, GlueCallRecorder.callsOf("CreateTable").stream().filter(c -> "twice".equals(c.tableName())).count());
    }

    /** moto's refusal of a Glue call: the SDK itself unmarshals the XML body after the response, and both phases agree. */
    @Test
    void accessDeniedAsXmlIsWhatTheSdkMakesOfAnXml403() {
        List<String> seen = new java.util.ArrayList<>();
        for (Fault.Phase phase : Fault.Phase.values()) {
            GlueFaults.inject(Fault.glue("GetDatabase").accessDeniedAsXml().phase(phase).build());
            software.amazon.awssdk.services.glue.model.GlueException e = assertThrows(
                    software.amazon.awssdk.services.glue.model.GlueException.class, () -> glue.getDatabase(b -> b.name(db)));
            assertSame(software.amazon.awssdk.services.glue.model.GlueException.class, e.getClass(), phase + ": " + e);
            assertEquals(403, e.statusCode());
            seen.add(e.awsErrorDetails().errorCode() + " / " + GlueCallRecorder.callsOf("GetDatabase")
                    .get(GlueCallRecorder.callsOf("GetDatabase").size() - 1).errorCode());
        }
        assertEquals(seen.get(1), seen.get(0), "BEFORE_SEND must look like the SDK's own unmarshalling: " + seen);
        assertEquals(1 + 1, GlueCallRecorder.callsOf("GetDatabase").size(), "a 403 is not retried");
    }

    @Test
    void faultsWorkOnAsyncClientsToo() {
        try (GlueAsyncClient async = ms.configure(GlueAsyncClient.builder())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry())).build()) {
            GlueFaults.inject(Fault.glue("GetDatabase").entityNotFound().afterResponse().build());
            CompletionException after = assertThrows(CompletionException.class, () -> async.getDatabase(b -> b.name(db)).join());
            assertInstanceOf(EntityNotFoundException.class, after.getCause());

            GlueFaults.inject(Fault.glue("GetDatabase").accessDenied().build());
            CompletionException before = assertThrows(CompletionException.class, () -> async.getDatabase(b -> b.name(db)).join());
            assertInstanceOf(AccessDeniedException.class, before.getCause());

            assertEquals(db, async.getDatabase(b -> b.name(db)).join().database().name());
            assertEquals(List.of(GlueCall.Outcome.FAILED, GlueCall.Outcome.FAILED, GlueCall.Outcome.SUCCEEDED),
                    GlueCallRecorder.callsOf("GetDatabase").stream().map(GlueCall::outcome).toList());
        }
    }

    @Test
    void clearFaultsDisarmsEverything() {
        GlueFaults.inject(Fault.glue(null).accessDenied().always().build());
        assertThrows(AccessDeniedException.class, () -> glue.getDatabase(b -> b.name(db)));
        assertThrows(AccessDeniedException.class, () -> glue.getTables(b -> b.databaseName(db)));
        GlueFaults.clear();
        glue.getDatabase(b -> b.name(db));
        GlueCallRecorder.clear();
        assertEquals(List.of(), GlueCallRecorder.calls());
    }
}
