package io.gluecat.testkit;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * AWS Glue's semantics where MiniStack differs: stand-ins that make MiniStack's answers what Glue's would be,
 * applied to every Glue call of this JVM through {@link GlueCallRecorder}'s interceptor. State is static and
 * thread safe.
 *
 * <p>Always on (a MiniStack that learns the operation answers itself):
 * <ul>
 *   <li>{@code BatchDeletePartition}, which MiniStack 1.5.33 lacks, is answered as Glue answers it
 *   ({@link MissingOperations}).</li>
 * </ul>
 * Switches, each off until turned on, turned off again by closing the handle it returns or by {@link #reset()}
 * (which {@link GlueCallRecorder#reset()} calls):
 * <ul>
 *   <li>{@link #pageListings(int)}: GetTables, GetDatabases and GetPartitions answer in pages with a
 *   {@code NextToken}; MiniStack answers with everything at once.</li>
 *   <li>{@link #filterAndPagePartitions()}: GetPartitions reads its {@code Expression} and pages by
 *   {@code MaxResults}, as Glue does; MiniStack ignores both.</li>
 *   <li>{@link #segmentPartitions()}: GetPartitions answers its {@code Segment} only; MiniStack answers every
 *   segment with all partitions.</li>
 *   <li>{@link #delayEachCall(long)}: every Glue and STS attempt waits as long as a round trip to AWS takes
 *   (benchmarks only).</li>
 * </ul>
 */
public final class GlueSemantics {

    /** GetPartitions' largest page, and its page when the request sets no MaxResults (Glue's limit). */
    public static final int PARTITIONS_PER_PAGE = 1000;

    private static int pageSize;                      // guarded by GlueCallRecorder.LOCK; 0 = off
    private static boolean segmentPartitions;         // guarded by GlueCallRecorder.LOCK
    private static boolean partitionsAsGlue;          // guarded by GlueCallRecorder.LOCK
    private static long delayNanos;                   // guarded by GlueCallRecorder.LOCK; 0 = none

    private GlueSemantics() {
    }

    /**
     * Makes Glue's listings ({@code GetTables}, {@code GetDatabases}, {@code GetPartitions}) answer in pages of {@code size} entries
     * with a {@code NextToken}, as AWS Glue does; MiniStack always answers with everything at once. The
     * token is this kit's own: a request carrying it is sent to the server without it, and the page is cut
     * from the full answer. A {@code GetTables} listing keeps its first full answer (the latest 32 listings),
     * and its later pages are cut from that while their requests ask MiniStack for no table at all, so
     * listing N tables costs MiniStack one full answer, not one per page, as paging costs AWS (benchmarks
     * list 10,000 tables). Close the handle (or {@link #reset()}) to turn paging off.
     */
    public static AutoCloseable pageListings(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("page size must be positive: " + size);
        }
        return turnOn(() -> pageSize = size, () -> pageSize = 0);
    }

    /**
     * Makes {@code GetPartitions} honour its {@code Segment} as AWS Glue does: each segment answers a disjoint
     * part of the partitions, all segments together every partition. MiniStack ignores {@code Segment} and
     * answers every segment with all partitions. Close the handle (or {@link #reset()}) to turn it off.
     */
    public static AutoCloseable segmentPartitions() {
        return turnOn(() -> segmentPartitions = true, () -> segmentPartitions = false);
    }

    /**
     * Makes {@code GetPartitions} answer as AWS Glue does where MiniStack does not: its {@code Expression}
     * selects the partitions ({@link PartitionExpression}: Glue's grammar, literals read as the table's partition
     * key types, which the kit reads with a GetTable of its own that is not recorded), and the answer comes in
     * pages of the request's {@code MaxResults} ({@value #PARTITIONS_PER_PAGE} when unset, and at most that) with
     * a {@code NextToken} (a kit token, as {@link #pageListings}'s, which then no longer pages GetPartitions). An
     * expression Glue would refuse is answered with {@code InvalidInputException} before it is sent. As with
     * GetTables, an answer of several pages is kept, and its later pages are cut from it while their requests ask
     * MiniStack for no partition at all, so a page costs MiniStack little, as it costs Glue. Combines with
     * {@link #segmentPartitions()} (filtered, then segmented, then paged). Close the handle (or {@link #reset()})
     * to turn it off.
     */
    public static AutoCloseable filterAndPagePartitions() {
        return turnOn(() -> partitionsAsGlue = true, () -> partitionsAsGlue = false);
    }

    /**
     * Makes every Glue and STS attempt wait {@code millis} before it is sent, in the caller's thread, as a
     * stand-in for the round trip to AWS (MiniStack answers on loopback in about a millisecond). For
     * benchmarks; tests never depend on time. Close the handle (or {@link #reset()}) to remove the delay.
     */
    public static AutoCloseable delayEachCall(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("delay must not be negative: " + millis);
        }
        long nanos = TimeUnit.MILLISECONDS.toNanos(millis);
        return turnOn(() -> delayNanos = nanos, () -> delayNanos = 0);
    }

    /** Turns every switch off: listings unpaged, partitions as MiniStack answers them, calls undelayed. */
    public static void reset() {
        synchronized (GlueCallRecorder.LOCK) {
            pageSize = 0;
            delayNanos = 0;
            segmentPartitions = false;
            partitionsAsGlue = false;
        }
    }

    /** Turns a switch on now, under the kit's lock; the handle turns it off. */
    private static AutoCloseable turnOn(Runnable on, Runnable off) {
        synchronized (GlueCallRecorder.LOCK) {
            on.run();
        }
        return () -> {
            synchronized (GlueCallRecorder.LOCK) {
                off.run();
            }
        };
    }

    // ---------------------------------------------------------------- called by the interceptor

    /** Once per call: takes the kit's page token out of a listing request. */
    static SdkRequest modifyRequest(SdkRequest request, ExecutionAttributes attributes) {
        return GlueListings.modifyRequest(request, attributes);
    }

    /** Once per call: a listing's answer filtered, segmented and paged as the switches say. */
    static SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes attributes) {
        int size;
        boolean asGlue;
        boolean segmented;
        synchronized (GlueCallRecorder.LOCK) {
            size = pageSize;
            asGlue = partitionsAsGlue;
            segmented = segmentPartitions;
        }
        return GlueListings.modifiedResponse(context, attributes, size, asGlue, segmented);
    }

    /** Before an attempt is recorded, in the caller's thread: {@link #delayEachCall}'s wait. */
    static void delay() {
        long delay;
        synchronized (GlueCallRecorder.LOCK) {
            delay = delayNanos;
        }
        for (long end = System.nanoTime() + delay, left = delay; left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    /** After an attempt is recorded and no fault fired: refuses a partition filter Glue would refuse. */
    static void beforeSend(Context.BeforeTransmission context, ExecutionAttributes attributes, Attempt attempt) {
        boolean on;
        synchronized (GlueCallRecorder.LOCK) {
            on = partitionsAsGlue;
        }
        if (on) {
            GlueListings.refuseOrKeepPartitionFilter(context, attributes, attempt);
        }
    }

    /** After MiniStack answered and no fault fired: answers an operation MiniStack lacks. */
    static void afterResponse(Context.AfterTransmission context, Attempt attempt) {
        MissingOperations.emulate(context, attempt);
    }

    /** The status and headers of the kit's own answer to this attempt, or null when MiniStack answered. */
    static SdkHttpResponse emulatedResponse(Context.ModifyHttpResponse context, Attempt attempt) {
        if (attempt.emulatedBody == null) {
            return null;
        }
        return context.httpResponse().toBuilder().statusCode(200).statusText(null).clearHeaders()
                .putHeader("x-amzn-RequestId", AwsErrors.requestId(attempt))
                .putHeader("Content-Type", "application/x-amz-json-1.1")
                .putHeader("Content-Length", String.valueOf(attempt.emulatedBody.length)).build();
    }
}
