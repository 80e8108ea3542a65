package io.gluecat.testkit;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes Glue or STS attempts of this JVM meet before they are sent, through {@link GlueCallRecorder}'s
 * interceptor: a test shows that calls were in flight together without measuring time. One meeting at a time.
 */
public final class GlueRendezvous {

    private static volatile Meeting meeting;

    private GlueRendezvous() {
    }

    /**
     * Holds every attempt of {@code operation} before it is sent until {@code parties} of them are held at the
     * same time, then lets them go, and every later one without holding it. Attempts sent one after another
     * never meet: the first gives up after {@code timeoutMillis}, and then none is held any more.
     * {@link Meeting#met()} says whether they met, so a test can show that calls were in flight together
     * without measuring time. Close it (or {@link GlueCallRecorder#reset()}) to stop holding.
     */
    public static Meeting meet(String operation, int parties, long timeoutMillis) {
        Meeting m = new Meeting(operation, parties, timeoutMillis);
        meeting = m;
        return m;
    }

    /** Called by the interceptor before each Glue or STS attempt is sent, in the caller's thread. */
    static void arrive(String operation) {
        Meeting m = meeting;
        if (m != null) {
            m.arrive(operation);
        }
    }

    static void reset() {
        meeting = null;
    }

    /** See {@link #meet}. */
    public static final class Meeting implements AutoCloseable {
        private final String operation;
        private final CountDownLatch arrivals;
        private final long timeoutMillis;
        private final AtomicInteger held = new AtomicInteger();
        private final AtomicInteger mostHeld = new AtomicInteger();
        private volatile boolean gaveUp;

        private Meeting(String operation, int parties, long timeoutMillis) {
            this.operation = operation;
            this.arrivals = new CountDownLatch(parties);
            this.timeoutMillis = timeoutMillis;
        }

        /** Whether the parties were all held at once. */
        public boolean met() {
            return arrivals.getCount() == 0 && !gaveUp;
        }

        /** The most attempts held at the same time. */
        public int mostHeld() {
            return mostHeld.get();
        }

        void arrive(String op) {
            if (!operation.equals(op) || gaveUp || arrivals.getCount() == 0) {
                return;
            }
            mostHeld.accumulateAndGet(held.incrementAndGet(), Math::max);
            arrivals.countDown();
            try {
                if (!arrivals.await(timeoutMillis, TimeUnit.MILLISECONDS)) {
                    gaveUp = true;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                gaveUp = true;
            } finally {
                held.decrementAndGet();
            }
        }

        @Override
        public void close() {
            if (meeting == this) {
                meeting = null;
            }
        }
    }
}
