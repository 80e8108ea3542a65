package io.gluecat.testkit;

import java.util.EnumSet;
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
 * <p>On by default, each a {@link Behaviour} (at JVM start and after every {@link #reset()}, which
 * {@link GlueCallRecorder#reset()} calls): paged listings, GetPartitions' {@code Expression}, pages and
 * {@code Segment}, {@code UpdateTable} replacing the whole entry, names folded to lower case, and
 * {@code EntityNotFoundException} for the partitions of a missing table. A test that needs MiniStack's own
 * answer turns one off with {@link #off(Behaviour, Behaviour...)}, or all of them with {@link #rawEmulator()},
 * and says why in a comment. What MiniStack 1.5.33 already does as Glue does needs no stand-in: it keeps a
 * {@code VersionId} per table and refuses an {@code UpdateTable} naming another one with
 * {@code ConcurrentModificationException} (Glue's {@code DeleteTable} takes no {@code VersionId}).
 *
 * <p>Always on (a MiniStack that learns the operation answers itself): {@code BatchDeletePartition}, which
 * MiniStack 1.5.33 lacks, is answered as Glue answers it.
 *
 * <p>For tests and benchmarks that want other than Glue's defaults: {@link #pageListings(int)} (pages of a fixed
 * size) and {@link #delayEachCall(long)} (a round trip's wait before every attempt, benchmarks only).
 */
public final class GlueSemantics {

    /** Glue's answers where MiniStack differs, each on by default; {@link #off} turns one off. */
    public enum Behaviour {
        /**
         * GetTables and GetDatabases answer in pages of the request's {@code MaxResults} (at most
         * {@value GlueSemantics#TABLES_PER_PAGE}, and that when unset) with a {@code NextToken}; MiniStack
         * answers with everything. GetPartitions is paged by {@link #PARTITIONS_AS_GLUE}, or at Glue's sizes by
         * this one alone when that is off.
         */
        PAGED_LISTINGS,
        /**
         * GetPartitions reads its {@code Expression} (Glue's grammar, literals typed by the table's partition keys)
         * and answers in pages of its {@code MaxResults} (at most, and by default,
         * {@value GlueSemantics#PARTITIONS_PER_PAGE}); an expression Glue cannot read is refused with
         * {@code InvalidInputException}. MiniStack ignores both.
         */
        PARTITIONS_AS_GLUE,
        /** GetPartitions answers its {@code Segment} only; MiniStack answers every segment with every partition. */
        PARTITION_SEGMENTS,
        /**
         * UpdateTable replaces the whole entry with its {@code TableInput}, as Glue does: a field the input leaves
         * out is gone afterwards. MiniStack keeps every field the input does not name (a merge).
         */
        REPLACE_ON_UPDATE,
        /**
         * Database, table and column names are stored and looked up in lower case, as Glue does (Hive's rule);
         * MiniStack keeps the case it was sent.
         */
        LOWER_CASE_NAMES,
        /**
         * Partition calls on a table that does not exist (GetPartitions, GetPartition, BatchGetPartition,
         * CreatePartition, BatchCreatePartition) fail with {@code EntityNotFoundException}; MiniStack answers
         * them as if the table had no partitions, or stores the partitions.
         */
        MISSING_TABLE_PARTITIONS
    }

    /** GetPartitions' largest page, and its page when the request sets no MaxResults (Glue's limit). */
    public static final int PARTITIONS_PER_PAGE = 1000;
    /** GetTables' and GetDatabases' largest page, and their page when the request sets no MaxResults. */
    public static final int TABLES_PER_PAGE = 100;

    private static final EnumSet<Behaviour> ON = EnumSet.allOf(Behaviour.class);   // guarded by GlueCallRecorder.LOCK
    private static int pageSize;                      // guarded by GlueCallRecorder.LOCK; 0 = Glue's sizes
    private static long delayNanos;                   // guarded by GlueCallRecorder.LOCK; 0 = none

    private GlueSemantics() {
    }

    /**
     * Turns Glue's behaviours off, for a test that needs MiniStack's own answer (say why in the test), until the
     * handle is closed (which restores what was on before) or {@link #reset()}.
     */
    public static AutoCloseable off(Behaviour first, Behaviour... more) {
        EnumSet<Behaviour> chosen = EnumSet.of(first, more);
        EnumSet<Behaviour> before;
        synchronized (GlueCallRecorder.LOCK) {
            before = EnumSet.copyOf(ON);
            ON.removeAll(chosen);
        }
        return restoring(before);
    }

    /** Every {@link Behaviour} off: MiniStack answers as it does itself (close the handle or {@link #reset()}). */
    public static AutoCloseable rawEmulator() {
        return off(Behaviour.PAGED_LISTINGS, Behaviour.values());
    }

    /** Whether a behaviour is on now. */
    public static boolean isOn(Behaviour behaviour) {
        synchronized (GlueCallRecorder.LOCK) {
            return ON.contains(behaviour);
        }
    }

    private static AutoCloseable restoring(EnumSet<Behaviour> before) {
        return () -> {
            synchronized (GlueCallRecorder.LOCK) {
                ON.clear();
                ON.addAll(before);
            }
        };
    }

    /**
     * Makes Glue's listings ({@code GetTables}, {@code GetDatabases}, {@code GetPartitions}) answer in pages of {@code size} entries
     * with a {@code NextToken}, whatever their {@code MaxResults} (Glue's own sizes are the default, see
     * {@link Behaviour#PAGED_LISTINGS} and {@link Behaviour#PARTITIONS_AS_GLUE}), to get many pages from a few
     * entries. The token is this kit's own: a request carrying it is sent to the server without it, and the
     * page is cut from the full answer. A {@code GetTables} listing keeps its first full answer (the latest 32
     * listings), and its later pages are cut from that while their requests ask MiniStack for no table at all, so
     * listing N tables costs MiniStack one full answer, not one per page, as paging costs AWS (benchmarks
     * list 10,000 tables). Close the handle (or {@link #reset()}) to go back to Glue's sizes.
     */
    public static AutoCloseable pageListings(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("page size must be positive: " + size);
        }
        int before;
        synchronized (GlueCallRecorder.LOCK) {
            before = pageSize;
            pageSize = size;
            ON.add(Behaviour.PAGED_LISTINGS);
        }
        return () -> {
            synchronized (GlueCallRecorder.LOCK) {
                pageSize = before;
            }
        };
    }

    /** {@link Behaviour#PARTITION_SEGMENTS} on (it is by default) until the handle is closed. */
    public static AutoCloseable segmentPartitions() {
        return on(Behaviour.PARTITION_SEGMENTS);
    }

    /** {@link Behaviour#PARTITIONS_AS_GLUE} on (it is by default) until the handle is closed. */
    public static AutoCloseable filterAndPagePartitions() {
        return on(Behaviour.PARTITIONS_AS_GLUE);
    }

    private static AutoCloseable on(Behaviour behaviour) {
        EnumSet<Behaviour> before;
        synchronized (GlueCallRecorder.LOCK) {
            before = EnumSet.copyOf(ON);
            ON.add(behaviour);
        }
        return restoring(before);
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
        long before;
        synchronized (GlueCallRecorder.LOCK) {
            before = delayNanos;
            delayNanos = nanos;
        }
        return () -> {
            synchronized (GlueCallRecorder.LOCK) {
                delayNanos = before;
            }
        };
    }

    /** Back to the defaults: every {@link Behaviour} on, Glue's page sizes, calls undelayed, no table keys kept. */
    public static void reset() {
        synchronized (GlueCallRecorder.LOCK) {
            ON.addAll(EnumSet.allOf(Behaviour.class));
            pageSize = 0;
            delayNanos = 0;
        }
        TableKeys.clear();
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
            size = pageSize > 0 ? pageSize : ON.contains(Behaviour.PAGED_LISTINGS) ? GLUE_PAGES : 0;
            asGlue = ON.contains(Behaviour.PARTITIONS_AS_GLUE);
            segmented = ON.contains(Behaviour.PARTITION_SEGMENTS);
        }
        return GlueListings.modifiedResponse(context, attributes, size, asGlue, segmented);
    }

    /** The page size {@link GlueListings} reads as "the request's MaxResults, within Glue's limits". */
    static final int GLUE_PAGES = -1;

    /** Once per attempt, before signing: the request body as Glue would read it (names, replaced fields). */
    static byte[] rewrittenBody(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        boolean lower;
        boolean replace;
        synchronized (GlueCallRecorder.LOCK) {
            lower = ON.contains(Behaviour.LOWER_CASE_NAMES);
            replace = ON.contains(Behaviour.REPLACE_ON_UPDATE);
        }
        return GlueRequests.rewrite(context, attributes, lower, replace);
    }

    /** A name as Glue stores it: lower case while {@link Behaviour#LOWER_CASE_NAMES} is on. */
    static String storedName(String name) {
        return name != null && isOn(Behaviour.LOWER_CASE_NAMES) ? name.toLowerCase(java.util.Locale.ROOT) : name;
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

    /** After an attempt is recorded and no fault fired: refuses what Glue would refuse (filter, missing table). */
    static void beforeSend(Context.BeforeTransmission context, ExecutionAttributes attributes, Attempt attempt) {
        boolean asGlue;
        boolean missing;
        synchronized (GlueCallRecorder.LOCK) {
            asGlue = ON.contains(Behaviour.PARTITIONS_AS_GLUE);
            missing = ON.contains(Behaviour.MISSING_TABLE_PARTITIONS);
        }
        TableKeys.forget(context.request(), context.httpRequest());
        if (missing) {
            TableKeys.refuseMissingTable(context, attempt);
        }
        if (asGlue) {
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
