package io.gluecat.testkit.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gluecat.testkit.MiniStack;
import io.gluecat.testkit.Moto;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;
import software.amazon.awssdk.services.glue.model.GlueException;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * MiniStack and moto on the container backend, through the same API as the process: the kit's own suite runs on
 * processes, so this class switches to containers for its tests. Each runs where a Docker engine answers and the
 * fixture's image is there (CI builds them); skipped elsewhere.
 */
class FixtureContainersTest {
    private final String before = System.getProperty(Backend.PROPERTY);

    /** Skips the test unless auto would take a container of {@code images}; then insists on containers. */
    private static void containers(Backend.Images images) {
        System.setProperty(Backend.PROPERTY, "auto");
        Optional<Backend.Choice> choice = Backend.choose(images);
        assumeTrue(choice.isPresent(), "no Docker engine with an image of " + images.fixture() + " here");
        System.setProperty(Backend.PROPERTY, "container");
    }

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty(Backend.PROPERTY);
        } else {
            System.setProperty(Backend.PROPERTY, before);
        }
    }

    @Test
    void aMiniStackContainerServesGlueAndS3OnLoopbackLogsAndStops() throws IOException {
        containers(MiniStack.containerImages());
        MiniStack ms = MiniStack.start();
        try (GlueClient glue = ms.glue(); S3Client s3 = ms.s3()) {
            assertEquals("127.0.0.1", ms.endpoint().getHost());
            assertTrue(ms.toString().contains("ministack-" + ms.port() + ".log"), ms.toString());
            glue.createDatabase(b -> b.databaseInput(d -> d.name("in_a_container")));
            assertEquals("in_a_container", glue.getDatabase(b -> b.name("in_a_container")).database().name());
            String bucket = ms.createBucket("container-bucket");
            s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("v"));
            assertEquals("v", s3.getObjectAsBytes(b -> b.bucket(bucket).key("k")).asUtf8String());
            ms.reset();
            assertThrows(EntityNotFoundException.class, () -> glue.getDatabase(b -> b.name("in_a_container")));
            assertTrue(Files.readString(ms.logFile()).contains("Ready"), "the container's output goes to " + ms.logFile());
        } finally {
            ms.close();
        }
        assertFalse(ms.isRunning());
        assertFalse(listening(ms.port()), "port " + ms.port() + " still published after close");
    }

    @Test
    void aMotoContainerEnforcesIamOnLoopbackLogsAndStops() throws IOException {
        containers(Moto.containerImages());
        Moto moto = Moto.withIam();
        int port = moto.endpoint().getPort();
        try {
            assertTrue(moto.inContainer(), "auto found the image: a container");
            assertEquals("127.0.0.1", moto.endpoint().getHost());
            AwsBasicCredentials reader = moto.principal("container-reader", "{\"Version\":\"2012-10-17\","
                    + "\"Statement\":[{\"Effect\":\"Allow\",\"Action\":[\"glue:GetDatabase\"],\"Resource\":\"*\"}]}");
            try (GlueClient admin = glue(moto, moto.admin()); GlueClient glue = glue(moto, reader)) {
                admin.createDatabase(b -> b.databaseInput(d -> d.name("in_a_container")));
                assertEquals("in_a_container", glue.getDatabase(b -> b.name("in_a_container")).database().name());
                GlueException denied = assertThrows(GlueException.class,
                        () -> glue.createDatabase(b -> b.databaseInput(d -> d.name("refused"))));
                assertEquals(403, denied.statusCode());
                assertThrows(EntityNotFoundException.class, () -> admin.getDatabase(b -> b.name("refused")));
            }
            assertTrue(moto.logFile().getFileName().toString().equals("moto-" + port + ".log"), moto.logFile().toString());
            assertTrue(Files.readString(moto.logFile()).contains("POST /moto-api/reset-auth"),
                    "the container's output goes to " + moto.logFile());
        } finally {
            moto.close();
        }
        assertFalse(listening(port), "port " + port + " still published after close");
    }

    private static GlueClient glue(Moto moto, AwsBasicCredentials credentials) {
        return GlueClient.builder().endpointOverride(moto.endpoint()).region(Region.of(Moto.REGION))
                .credentialsProvider(StaticCredentialsProvider.create(credentials)).build();
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
