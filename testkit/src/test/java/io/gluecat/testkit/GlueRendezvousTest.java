package io.gluecat.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Attempts held until they meet, against the real MiniStack, through plain SDK clients. */
class GlueRendezvousTest extends GlueKitTest {

    @Test
    void attemptsInFlightTogetherMeetAndAreThenSent() throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(2);   // two threads of its own: each call is held
        try (GlueRendezvous.Meeting meeting = GlueRendezvous.meet("GetDatabase", 2, 60_000)) {
            List<Future<String>> names = List.of(
                    callers.submit(() -> glue.getDatabase(b -> b.name(db)).database().name()),
                    callers.submit(() -> glue.getDatabase(b -> b.name(db)).database().name()));
            for (Future<String> name : names) {
                assertEquals(db, name.get());
            }
            assertTrue(meeting.met());
            assertEquals(2, meeting.mostHeld());
        } finally {
            callers.shutdownNow();
        }
        assertEquals(2, GlueCallRecorder.callsOf("GetDatabase").size());
    }

    @Test
    void attemptsOneAfterAnotherNeverMeetAndOnlyTheFirstIsHeld() {
        try (GlueRendezvous.Meeting meeting = GlueRendezvous.meet("GetDatabase", 2, 200)) {
            glue.getTables(b -> b.databaseName(db));   // another operation: never held
            glue.getDatabase(b -> b.name(db));        // held until it gives up
            glue.getDatabase(b -> b.name(db));        // then none is held any more
            assertFalse(meeting.met());
            assertEquals(1, meeting.mostHeld());
        }
        assertEquals(List.of("GetTables", "GetDatabase", "GetDatabase"),
                GlueCallRecorder.calls().stream().map(GlueCall::operation).toList());
    }
}
