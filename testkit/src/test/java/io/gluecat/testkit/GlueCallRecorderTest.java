package io.gluecat.testkit;

import static io.gluecat.testkit.MiniStackTest.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.AccessDeniedException;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;
import software.amazon.awssdk.services.sts.model.Credentials;

/** What the recorder records, against the real MiniStack, through plain SDK clients. */
class GlueCallRecorderTest extends GlueKitTest {

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
        try (Fault.Handle ignored = GlueFaults.inject(Fault.glue("GetDatabases").accessDenied().build())) {
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
}
