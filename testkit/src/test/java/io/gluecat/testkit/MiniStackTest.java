package io.gluecat.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.ConcurrentModificationException;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.model.Credentials;
import software.amazon.awssdk.services.sts.model.StsException;

/** The fixture against the real process: start, Glue round trip, reset, side-by-side instances, stop. */
class MiniStackTest {

    static String unique(String prefix) {
        return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    @Test
    void sharedInstanceIsHealthyAndServesGlueRoundTripWithVersionIdCheck() {
        MiniStack ms = MiniStack.shared();
        assertSame(ms, MiniStack.shared());
        assertEquals("127.0.0.1", ms.endpoint().getHost());
        String db = unique("db");
        TableInput input = TableInput.builder()
                .name("events")
                .description("an events table")
                .tableType("EXTERNAL_TABLE")
                .parameters(Map.of("spark.sql.sources.provider", "delta", "long", "x".repeat(4000)))
                .partitionKeys(Column.builder().name("day").type("string").comment("partition day").build())
                .storageDescriptor(sd -> sd.location("s3://bucket/events")
                        .columns(Column.builder().name("id").type("bigint").comment("the id").build()))
                .build();
        try (GlueClient glue = ms.glue()) {
            glue.createDatabase(b -> b.databaseInput(d -> d.name(db).description("test db")));
            glue.createTable(b -> b.databaseName(db).tableInput(input));

            Table table = glue.getTable(b -> b.databaseName(db).name("events")).table();
            assertEquals("an events table", table.description());
            assertEquals("EXTERNAL_TABLE", table.tableType());
            assertEquals(input.parameters(), table.parameters());
            assertEquals(input.partitionKeys(), table.partitionKeys());
            assertEquals(input.storageDescriptor().columns(), table.storageDescriptor().columns());
            assertEquals("s3://bucket/events", table.storageDescriptor().location());
            assertEquals("1", table.versionId());

            glue.updateTable(b -> b.databaseName(db).versionId("1").tableInput(input.toBuilder().description("v2").build()));
            assertEquals("2", glue.getTable(b -> b.databaseName(db).name("events")).table().versionId());

            // A stale VersionId is the optimistic-lock failure gluecat's commit relies on.
            assertThrows(ConcurrentModificationException.class, () -> glue.updateTable(
                    b -> b.databaseName(db).versionId("1").tableInput(input.toBuilder().description("v3").build())));
        }
    }

    /** MiniStack 1.5.x: an AssumeRole session key acts in the account of the role's ARN (1.4.x used 000000000000). */
    @Test
    void stsAssumeRoleWorksAndItsKeyActsInTheRolesAccount() {
        MiniStack ms = MiniStack.shared();
        String db = unique("db");
        try (GlueClient glue = ms.glue(); StsClient sts = ms.sts()) {
            glue.createDatabase(b -> b.databaseInput(d -> d.name(db)));
            assertEquals("000000000000", sts.getCallerIdentity().account());
            for (String account : List.of("000000000000", "123456789012")) {
                Credentials role = sts.assumeRole(b -> b.roleArn("arn:aws:iam::" + account + ":role/r")
                        .roleSessionName("s").externalId("x")).credentials();
                assertTrue(role.accessKeyId().startsWith("ASIA"), role.accessKeyId());
                try (GlueClient asRole = ms.configure(GlueClient.builder()).credentialsProvider(StaticCredentialsProvider.create(
                        AwsSessionCredentials.create(role.accessKeyId(), role.secretAccessKey(), role.sessionToken()))).build()) {
                    if (account.equals("000000000000")) {
                        asRole.getDatabase(b -> b.name(db));
                    } else {
                        assertThrows(EntityNotFoundException.class, () -> asRole.getDatabase(b -> b.name(db)));
                    }
                }
            }
            // Only the ARN's format is checked.
            assertThrows(StsException.class, () -> sts.assumeRole(b -> b.roleArn("not-an-arn").roleSessionName("s")));
        }
    }

    @Test
    void resetWipesAllState() {
        try (MiniStack ms = MiniStack.start(); GlueClient glue = ms.glue()) {
            glue.createDatabase(b -> b.databaseInput(d -> d.name("kept_until_reset")));
            glue.createTable(b -> b.databaseName("kept_until_reset").tableInput(t -> t.name("t")));
            assertEquals(1, glue.getTables(b -> b.databaseName("kept_until_reset")).tableList().size());

            ms.reset();

            assertThrows(EntityNotFoundException.class, () -> glue.getDatabase(b -> b.name("kept_until_reset")));
            assertEquals(List.of(), glue.getDatabases(b -> { }).databaseList());
        }
    }

    @Test
    void twoInstancesRunSideBySideAndStopCleanly() throws IOException {
        MiniStack first = MiniStack.start();
        MiniStack second = MiniStack.start();
        try (GlueClient glue1 = first.glue(); GlueClient glue2 = second.glue()) {
            assertNotEquals(first.port(), second.port());
            glue1.createDatabase(b -> b.databaseInput(d -> d.name("only_in_first")));
            glue1.getDatabase(b -> b.name("only_in_first"));
            assertThrows(EntityNotFoundException.class, () -> glue2.getDatabase(b -> b.name("only_in_first")));
            assertTrue(Files.readString(first.logFile()).contains("Ready"), "log goes to " + first.logFile());
        } finally {
            first.close();
            second.close();
        }
        for (MiniStack ms : List.of(first, second)) {
            assertFalse(ms.isRunning());
            assertFalse(listening(ms.port()), "port " + ms.port() + " still open after close");
        }
    }

    @Test
    void closeOnTheSharedInstanceDoesNotStopIt() {
        MiniStack ms = MiniStack.shared();
        ms.close();
        assertTrue(ms.isRunning());
        assertSame(ms, MiniStack.shared());
    }

    @Test
    void createBucketAndS3aSettingsGlobalAndPerBucket() {
        MiniStack ms = MiniStack.shared();
        String bucket = ms.createBucket(unique("bucket").replace('_', '-'));
        try (S3Client s3 = ms.s3()) {
            s3.putObject(b -> b.bucket(bucket).key("a/b.txt"), RequestBody.fromString("hello"));
            assertEquals("hello", s3.getObjectAsBytes(b -> b.bucket(bucket).key("a/b.txt")).asUtf8String());
        }
        Map<String, String> global = ms.s3aSettings();
        assertEquals(ms.endpoint().toString(), global.get("fs.s3a.endpoint"));
        assertEquals("us-east-1", global.get("fs.s3a.endpoint.region"));
        assertEquals("true", global.get("fs.s3a.path.style.access"));
        assertEquals(MiniStack.ACCESS_KEY_ID, global.get("fs.s3a.access.key"));

        Map<String, String> perBucket = ms.s3aSettings(bucket);
        assertEquals(global.size(), perBucket.size());
        global.forEach((k, v) -> assertEquals(v, perBucket.get("fs.s3a.bucket." + bucket + "." + k.substring(7)), k));
        assertEquals(ms.endpoint().toString(), MiniStack.asSparkSettings(perBucket)
                .get("spark.hadoop.fs.s3a.bucket." + bucket + ".endpoint"));

        assertThrows(IllegalArgumentException.class, () -> ms.s3aSettings("a.dotted.bucket"));
        assertThrows(IllegalArgumentException.class, () -> ms.createBucket("Upper_Case"));
        assertThrows(IllegalArgumentException.class, () -> MiniStack.forBucket("b1", Map.of("spark.x", "y")));
    }

    private static boolean listening(int port) {
        try (Socket ignored = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException refused) {
            return false;
        }
    }
}
