package io.gluecat.testkit;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.reactivestreams.Publisher;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.glue.model.GetDatabasesRequest;
import software.amazon.awssdk.services.glue.model.GetDatabasesResponse;
import software.amazon.awssdk.services.glue.model.GetPartitionsRequest;
import software.amazon.awssdk.services.glue.model.GetPartitionsResponse;
import software.amazon.awssdk.services.glue.model.GetTablesRequest;
import software.amazon.awssdk.services.glue.model.GetTablesResponse;

/**
 * Records every Glue and STS request the AWS SDK v2 sends in this JVM, and injects faults into them.
 *
 * <h2>Registration</h2>
 * The SDK loads every class named in {@code software/amazon/awssdk/global/handlers/execution.interceptors}
 * on the classpath into every client it builds, so having the testkit jar on the classpath is enough: no
 * client needs configuring (do not also add it by hand, or calls are recorded twice). The SDK creates one
 * instance per client; all state is static, shared by the JVM, and thread safe. Clients of other services
 * pass through untouched.
 *
 * <h2>Recording</h2>
 * One {@link GlueCall} per HTTP attempt, added when the signed request is about to be sent (so the access
 * key is the one actually used) and completed when the attempt ends. An SDK retry is a new record with a
 * higher {@link GlueCall#attempt()}. Secret keys and session tokens are never read, only the key id from the
 * {@code Authorization} header and whether a token header was present. {@link #clear()} between tests;
 * beyond {@value #MAX_CALLS} records the oldest are dropped.
 *
 * <h2>Faults</h2>
 * {@link #inject(Fault)} arms a fault until its handle is closed or {@link #clearFaults()}. What the caller
 * sees is what AWS would make it see: the SDK's modelled exception class for the error code (e.g. Glue's
 * {@code EntityNotFoundException} or {@code ThrottlingException}, or the base {@code StsException} for STS's
 * unmodelled {@code AccessDenied}), with {@code awsErrorDetails().errorCode()} and {@code statusCode()} set,
 * and the SDK's own retry policy applied, so a throttling or 5xx fault that fires once is retried and the
 * caller never notices, while one that fires on every attempt surfaces after the SDK's last attempt.
 * <ul>
 *   <li>{@link Fault.Phase#BEFORE_SEND}: thrown from {@code beforeTransmission}, after signing, so the request
 *   never reaches the server. The SDK hands an exception thrown there to its retry stage exactly like one
 *   unmarshalled from a response: it is retried when retryable and reaches the caller unwrapped. The class is
 *   found by name from the error code ({@code <Code>} or {@code <Code>Exception} in the service's model
 *   package, else the service's base exception), which matches the SDK's own error mapping for the presets
 *   in {@link Fault.Builder}; {@link Fault.Builder#exceptionClass} covers codes named otherwise.</li>
 *   <li>{@link Fault.Phase#AFTER_RESPONSE}: the server received and applied the request; the SDK then sees an
 *   error response instead of the real one (status, {@code x-amzn-ErrorType} and JSON body for Glue, an XML
 *   {@code ErrorResponse} for STS), which it unmarshals and retries by its own rules. A retry re-sends the
 *   request, so e.g. a retried CreateTable meets {@code AlreadyExistsException}, as it would on AWS.</li>
 *   <li>{@link Fault.Builder#connectionReset()}: in either phase an {@code SdkClientException} "Unable to
 *   execute HTTP request: Connection reset" caused by {@code SocketException}, the shape the SDK gives a real
 *   reset; the SDK retries it.</li>
 * </ul>
 * Counting is per attempt of a matching call; when several armed faults match an attempt, the first armed
 * one that fires wins and the later ones do not see that attempt.
 */
public final class GlueCallRecorder implements ExecutionInterceptor {

    /** {@link GlueCall#service()} of Glue calls: the SDK's service name. */
    public static final String GLUE = "Glue";
    /** {@link GlueCall#service()} of STS calls: the SDK's service name. */
    public static final String STS = "Sts";
    /** Records kept; older ones are dropped so a long test JVM cannot fill its heap. */
    public static final int MAX_CALLS = 100_000;

    private static final Object LOCK = new Object();
    private static final Deque<Attempt> CALLS = new ArrayDeque<>();          // guarded by LOCK
    private static final List<Fault.Handle> FAULTS = new ArrayList<>();      // guarded by LOCK
    private static long sequence;                                             // guarded by LOCK
    private static int pageSize;                                              // guarded by LOCK; 0 = off
    private static boolean segmentPartitions;                                 // guarded by LOCK
    private static boolean partitionsAsGlue;                                  // guarded by LOCK

    /** GetPartitions' largest page, and its page when the request sets no MaxResults (Glue's limit). */
    public static final int PARTITIONS_PER_PAGE = 1000;
    /** The request's Expression as Glue reads it, against the table's partition keys. */
    private static final ExecutionAttribute<PartitionExpression> PARTITION_FILTER =
            new ExecutionAttribute<>("io.gluecat.testkit.GlueCallRecorder.partitionFilter");

    private static final String PAGE_TOKEN_PREFIX = "gluecat-testkit-page-";
    private static long delayNanos;                                           // guarded by LOCK; 0 = none
    private static final ExecutionAttribute<String> SENT_TOKEN =
            new ExecutionAttribute<>("io.gluecat.testkit.GlueCallRecorder.sentToken");
    private static final ExecutionAttribute<Integer> PAGE_OFFSET =
            new ExecutionAttribute<>("io.gluecat.testkit.GlueCallRecorder.pageOffset");
    /** A later page's listing: the kept first answer it is cut from, and that answer's id for the next token. */
    private record KeptListing(long id, List<?> entries) { }
    private static final ExecutionAttribute<KeptListing> PAGE_LISTING =
            new ExecutionAttribute<>("io.gluecat.testkit.GlueCallRecorder.pageListing");
    /** A GetTables filter no table name matches: a later page's request then costs MiniStack nothing to answer. */
    private static final String NO_TABLE = "gluecat-testkit-later-page-of-a-listing";
    /** The table a later page of kept partitions names, recorded instead of {@link #NO_TABLE}. */
    private static final ExecutionAttribute<String> SENT_TABLE =
            new ExecutionAttribute<>("io.gluecat.testkit.GlueCallRecorder.sentTable");
    /** The full first answers of the latest paged table (and emulated partition) listings, by id; guarded by LOCK. */
    private static final java.util.LinkedHashMap<Long, List<?>> LISTINGS = new java.util.LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<Long, List<?>> eldest) {
            return size() > 32;
        }
    };
    private static long listingSequence;                                      // guarded by LOCK

    private static final ExecutionAttribute<Attempt> CURRENT =
            new ExecutionAttribute<>("io.gluecat.testkit.GlueCallRecorder.attempt");

    private static final Pattern CREDENTIAL = Pattern.compile("Credential=([^/,\\s]+)/");
    private static final Pattern ATTEMPT = Pattern.compile("attempt=(\\d+)");
    private static final Pattern JSON_ERROR_TYPE = Pattern.compile("\"__type\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern XML_ERROR_CODE = Pattern.compile("<Code>([^<]+)</Code>");

    /** Instantiated by the SDK, once per client. */
    public GlueCallRecorder() {
    }

    // ---------------------------------------------------------------- API

    /** A snapshot of every recorded attempt, oldest first. */
    public static List<GlueCall> calls() {
        synchronized (LOCK) {
            return CALLS.stream().map(Attempt::toCall).toList();
        }
    }

    /** The recorded attempts that pass {@code filter}, oldest first. */
    public static List<GlueCall> calls(Predicate<GlueCall> filter) {
        return calls().stream().filter(filter).toList();
    }

    /** The recorded attempts of one operation (of any service), e.g. {@code "UpdateTable"}. */
    public static List<GlueCall> callsOf(String operation) {
        return calls(c -> c.operation().equals(operation));
    }

    /** The recorded attempts of one operation of one service ({@link #GLUE} or {@link #STS}). */
    public static List<GlueCall> callsOf(String service, String operation) {
        return calls(c -> c.service().equalsIgnoreCase(service) && c.operation().equals(operation));
    }

    /** Forgets the recorded calls (armed faults stay). */
    public static void clear() {
        synchronized (LOCK) {
            CALLS.clear();
        }
    }

    /** Arms a fault; close the handle to remove it. */
    public static Fault.Handle inject(Fault fault) {
        Fault.Handle handle = new Fault.Handle(fault);
        synchronized (LOCK) {
            FAULTS.add(handle);
        }
        return handle;
    }

    /** Removes every armed fault. */
    public static void clearFaults() {
        synchronized (LOCK) {
            FAULTS.clear();
        }
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
        synchronized (LOCK) {
            pageSize = size;
        }
        return () -> {
            synchronized (LOCK) {
                pageSize = 0;
            }
        };
    }

    /**
     * Makes {@code GetPartitions} honour its {@code Segment} as AWS Glue does: each segment answers a disjoint
     * part of the partitions, all segments together every partition. MiniStack ignores {@code Segment} and
     * answers every segment with all partitions. Close the handle (or {@link #reset()}) to turn it off.
     */
    public static AutoCloseable segmentPartitions() {
        synchronized (LOCK) {
            segmentPartitions = true;
        }
        return () -> {
            synchronized (LOCK) {
                segmentPartitions = false;
            }
        };
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
        synchronized (LOCK) {
            partitionsAsGlue = true;
        }
        return () -> {
            synchronized (LOCK) {
                partitionsAsGlue = false;
            }
        };
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
        synchronized (LOCK) {
            delayNanos = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(millis);
        }
        return () -> {
            synchronized (LOCK) {
                delayNanos = 0;
            }
        };
    }

    /** {@link #clear()} and {@link #clearFaults()}, listings unpaged and calls undelayed again. */
    public static void reset() {
        clear();
        clearFaults();
        synchronized (LOCK) {
            pageSize = 0;
            delayNanos = 0;
            segmentPartitions = false;
            partitionsAsGlue = false;
        }
        meeting = null;
    }

    /**
     * Holds every attempt of {@code operation} before it is sent until {@code parties} of them are held at the
     * same time, then lets them go, and every later one without holding it. Attempts sent one after another
     * never meet: the first gives up after {@code timeoutMillis}, and then none is held any more.
     * {@link Meeting#met()} says whether they met, so a test can show that calls were in flight together
     * without measuring time. Close it (or {@link #reset()}) to stop holding.
     */
    public static Meeting meet(String operation, int parties, long timeoutMillis) {
        Meeting m = new Meeting(operation, parties, timeoutMillis);
        meeting = m;
        return m;
    }

    private static volatile Meeting meeting;

    /** See {@link #meet}. */
    public static final class Meeting implements AutoCloseable {
        private final String operation;
        private final java.util.concurrent.CountDownLatch arrivals;
        private final long timeoutMillis;
        private final java.util.concurrent.atomic.AtomicInteger held = new java.util.concurrent.atomic.AtomicInteger();
        private final java.util.concurrent.atomic.AtomicInteger mostHeld = new java.util.concurrent.atomic.AtomicInteger();
        private volatile boolean gaveUp;

        private Meeting(String operation, int parties, long timeoutMillis) {
            this.operation = operation;
            this.arrivals = new java.util.concurrent.CountDownLatch(parties);
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
                if (!arrivals.await(timeoutMillis, java.util.concurrent.TimeUnit.MILLISECONDS)) {
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

    // ---------------------------------------------------------------- paging emulation

    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
        SdkRequest request = context.request();
        String token = request instanceof GetTablesRequest ? ((GetTablesRequest) request).nextToken()
                : request instanceof GetDatabasesRequest ? ((GetDatabasesRequest) request).nextToken()
                : request instanceof GetPartitionsRequest ? ((GetPartitionsRequest) request).nextToken() : null;
        if (token != null) {
            attributes.putAttribute(SENT_TOKEN, token);   // recorded as sent, before a kit token is taken out
        }
        if (token == null || !token.startsWith(PAGE_TOKEN_PREFIX)) {
            return request;
        }
        String[] listingAndOffset = token.substring(PAGE_TOKEN_PREFIX.length()).split("-");
        attributes.putAttribute(PAGE_OFFSET, Integer.parseInt(listingAndOffset[1]));
        if (request instanceof GetTablesRequest && ((GetTablesRequest) request).expression() == null) {
            long id = Long.parseLong(listingAndOffset[0]);
            List<?> listing;
            synchronized (LOCK) {
                listing = LISTINGS.get(id);
            }
            if (listing != null) {
                attributes.putAttribute(PAGE_LISTING, new KeptListing(id, listing));
                return ((GetTablesRequest) request).toBuilder().nextToken(null).expression(NO_TABLE).build();
            }
        }
        if (request instanceof GetPartitionsRequest get) {
            long id = Long.parseLong(listingAndOffset[0]);
            List<?> listing;
            synchronized (LOCK) {
                listing = id == 0 ? null : LISTINGS.get(id);
            }
            if (listing != null) {
                // a later page of a kept answer: MiniStack is asked for a table that does not exist (an empty answer)
                attributes.putAttribute(PAGE_LISTING, new KeptListing(id, listing));
                attributes.putAttribute(SENT_TABLE, get.tableName());
                return get.toBuilder().nextToken(null).tableName(NO_TABLE).build();
            }
            return get.toBuilder().nextToken(null).build();
        }
        return request instanceof GetTablesRequest ? ((GetTablesRequest) request).toBuilder().nextToken(null).build()
                : ((GetDatabasesRequest) request).toBuilder().nextToken(null).build();
    }

    @Override
    public SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes attributes) {
        int size;
        boolean asGlue;
        synchronized (LOCK) {
            size = pageSize;
            asGlue = partitionsAsGlue;
        }
        return counted(attributes, modifiedResponse(context, attributes, size, asGlue));
    }

    /** Notes how many entries a listing's answer holds, as the caller gets it. */
    private static SdkResponse counted(ExecutionAttributes attributes, SdkResponse response) {
        Attempt attempt = attributes.getAttribute(CURRENT);
        Integer returned = response instanceof GetPartitionsResponse p ? Integer.valueOf(p.partitions().size())
                : response instanceof GetTablesResponse t ? Integer.valueOf(t.tableList().size())
                : response instanceof GetDatabasesResponse d ? Integer.valueOf(d.databaseList().size()) : null;
        if (attempt != null && returned != null) {
            synchronized (LOCK) {
                attempt.returned = returned;
            }
        }
        return response;
    }

    private static SdkResponse modifiedResponse(Context.ModifyResponse context, ExecutionAttributes attributes,
                                                int size, boolean asGlue) {
        SdkResponse response = context.response();
        if (asGlue && response instanceof GetPartitionsResponse partitions) {
            PartitionExpression filter = attributes.getAttribute(PARTITION_FILTER);
            if (filter != null) {
                response = partitions.toBuilder().partitions(partitions.partitions().stream()
                        .filter(p -> filter.matches(p.values())).toList()).build();
            }
        }
        response = segmented(context.request(), response);
        if (asGlue && response instanceof GetPartitionsResponse partitions) {
            Integer max = ((GetPartitionsRequest) context.request()).maxResults();
            size = max == null ? PARTITIONS_PER_PAGE : Math.max(1, Math.min(max, PARTITIONS_PER_PAGE));
        }
        if (size == 0 || !(response instanceof GetTablesResponse || response instanceof GetDatabasesResponse
                || response instanceof GetPartitionsResponse)) {
            return response;
        }
        Integer attributeOffset = attributes.getAttribute(PAGE_OFFSET);
        int offset = attributeOffset == null ? 0 : attributeOffset;
        if (response instanceof GetPartitionsResponse) {
            GetPartitionsResponse partitions = (GetPartitionsResponse) response;
            KeptListing kept = attributes.getAttribute(PAGE_LISTING);
            List<?> all = kept != null ? kept.entries() : partitions.partitions();
            long listing = kept != null ? kept.id() : 0;
            if (asGlue && kept == null && attributeOffset == null && all.size() > size) {
                // kept, as a table listing is: later pages then cost MiniStack nothing, as a page costs Glue little
                synchronized (LOCK) {
                    listing = ++listingSequence;
                    LISTINGS.put(listing, all);
                }
            }
            return partitions.toBuilder().partitions(page(all, offset, size))
                    .nextToken(nextToken(listing, all.size(), offset, size)).build();
        }
        if (response instanceof GetTablesResponse) {
            GetTablesResponse tables = (GetTablesResponse) response;
            KeptListing kept = attributes.getAttribute(PAGE_LISTING);
            List<?> all = kept != null ? kept.entries() : tables.tableList();
            long listing = kept != null ? kept.id() : 0;
            if (kept == null && attributeOffset == null && all.size() > size
                    && ((GetTablesRequest) context.request()).expression() == null) {
                synchronized (LOCK) {
                    listing = ++listingSequence;
                    LISTINGS.put(listing, all);
                }
            }
            return tables.toBuilder().tableList(page(all, offset, size))
                    .nextToken(nextToken(listing, all.size(), offset, size)).build();
        }
        GetDatabasesResponse databases = (GetDatabasesResponse) response;
        List<?> all = databases.databaseList();
        return databases.toBuilder().databaseList(page(all, offset, size))
                .nextToken(nextToken(0, all.size(), offset, size)).build();
    }

    /** With {@link #segmentPartitions()}: a GetPartitions answer cut to the request's Segment, as Glue cuts it. */
    private static SdkResponse segmented(SdkRequest request, SdkResponse response) {
        boolean on;
        synchronized (LOCK) {
            on = segmentPartitions;
        }
        if (!on || !(response instanceof GetPartitionsResponse partitions)
                || !(request instanceof GetPartitionsRequest get) || get.segment() == null) {
            return response;
        }
        int number = get.segment().segmentNumber();
        int total = get.segment().totalSegments();
        return partitions.toBuilder().partitions(partitions.partitions().stream()
                .filter(p -> Math.floorMod(p.values().hashCode(), total) == number).toList()).build();
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T> page(List<?> all, int offset, int size) {
        return (List<T>) all.subList(Math.min(offset, all.size()), Math.min(offset + size, all.size()));
    }

    /** The kit's token of the page after this one: the listing whose first answer is kept (0: none), the offset. */
    private static String nextToken(long listing, int total, int offset, int size) {
        return offset + size < total ? PAGE_TOKEN_PREFIX + listing + "-" + (offset + size) : null;
    }

    static void remove(Fault.Handle handle) {
        synchronized (LOCK) {
            FAULTS.remove(handle);
        }
    }

    // ---------------------------------------------------------------- SDK hooks, called once per attempt

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        String service = recordedService(attributes);
        if (service == null) {
            return;
        }
        Meeting m = meeting;
        if (m != null) {
            m.arrive(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME));
        }
        long delay;
        synchronized (LOCK) {
            delay = delayNanos;
        }
        for (long end = System.nanoTime() + delay, left = delay; left > 0; left = end - System.nanoTime()) {
            java.util.concurrent.locks.LockSupport.parkNanos(left);
        }
        Attempt previous = attributes.getAttribute(CURRENT);
        Attempt attempt = new Attempt(service, attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME),
                attemptNumber(context.httpRequest(), previous), context.request(), context.httpRequest(),
                attributes.getAttribute(SENT_TOKEN), attributes.getAttribute(SENT_TABLE));
        synchronized (LOCK) {
            if (previous != null && previous.outcome != GlueCall.Outcome.SUCCEEDED) {
                previous.outcome = GlueCall.Outcome.RETRIED;   // a new attempt means the SDK retried the last one
            }
            attempt.sequence = ++sequence;
            CALLS.addLast(attempt);
            if (CALLS.size() > MAX_CALLS) {
                CALLS.removeFirst();
            }
        }
        attributes.putAttribute(CURRENT, attempt);

        Fault fault = firing(Fault.Phase.BEFORE_SEND, attempt);
        if (fault != null) {
            RuntimeException failure = fault.isConnectionReset()
                    ? connectionReset()
                    : serviceException(fault, attempt, context.request());
            synchronized (LOCK) {
                attempt.injected = fault.toString();
                attempt.failed(failure, fault.isConnectionReset() ? null : fault.httpStatus(), fault.errorCode());
            }
            throw failure;
        }
        refuseOrKeepPartitionFilter(context, attributes, attempt);
    }

    /**
     * With {@link #filterAndPagePartitions()}: reads a GetPartitions request's Expression against the table's
     * partition keys, kept for the answer; one Glue refuses is answered as Glue answers it, without sending it.
     */
    private static void refuseOrKeepPartitionFilter(Context.BeforeTransmission context, ExecutionAttributes attributes,
                                                    Attempt attempt) {
        boolean on;
        synchronized (LOCK) {
            on = partitionsAsGlue;
        }
        if (!on || !(context.request() instanceof GetPartitionsRequest get) || get.expression() == null) {
            return;
        }
        List<java.util.Map.Entry<String, String>> keys = partitionKeys(context.httpRequest(), get);
        if (keys == null) {
            return;   // no such table: the answer is MiniStack's
        }
        try {
            attributes.putAttribute(PARTITION_FILTER, PartitionExpression.parse(get.expression(), keys));
        } catch (PartitionExpression.Invalid e) {
            Fault refusal = Fault.glue("GetPartitions").error("InvalidInputException", 400).message(e.getMessage())
                    .build();
            AwsServiceException failure = serviceException(refusal, attempt, context.request());
            synchronized (LOCK) {
                attempt.failed(failure, 400, "InvalidInputException");
            }
            throw failure;
        }
    }

    /** The table's partition keys (name, Glue type), by a GetTable of the kit's own (unrecorded); null if none. */
    private static List<java.util.Map.Entry<String, String>> partitionKeys(SdkHttpRequest http, GetPartitionsRequest get) {
        java.net.URI endpoint = java.net.URI.create(http.protocol() + "://" + http.host() + ":" + http.port() + "/");
        String body = "{" + (get.catalogId() == null ? "" : "\"CatalogId\":" + SdkJson.quoted(get.catalogId()) + ",")
                + "\"DatabaseName\":" + SdkJson.quoted(get.databaseName()) + ",\"Name\":"
                + SdkJson.quoted(get.tableName()) + "}";
        java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder(endpoint)
                .header("Content-Type", "application/x-amz-json-1.1")
                .header("X-Amz-Target", "AWSGlue.GetTable")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body));
        http.firstMatchingHeader("Authorization").ifPresent(a -> request.header("Authorization", a));
        java.net.http.HttpResponse<String> answer;
        try {
            answer = HTTP.send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (answer.statusCode() != 200) {
            return null;
        }
        var table = software.amazon.awssdk.protocols.jsoncore.JsonNode.parser().parse(answer.body()).field("Table");
        List<java.util.Map.Entry<String, String>> keys = new ArrayList<>();
        table.flatMap(t -> t.field("PartitionKeys")).filter(k -> k.isArray()).ifPresent(k -> k.asArray().forEach(
                key -> keys.add(java.util.Map.entry(key.field("Name").map(n -> n.asString()).orElse(""),
                        key.field("Type").filter(n -> n.isString()).map(n -> n.asString()).orElse("string")))));
        return keys;
    }

    private static final java.net.http.HttpClient HTTP = java.net.http.HttpClient.newHttpClient();

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        Attempt attempt = attributes.getAttribute(CURRENT);
        if (attempt == null) {
            return;
        }
        SdkHttpResponse response = context.httpResponse();
        synchronized (LOCK) {
            attempt.httpStatus = response.statusCode();
            if (!response.isSuccessful()) {
                attempt.errorCode = response.firstMatchingHeader("x-amzn-ErrorType").map(t -> t.split(":")[0]).orElse(null);
            }
        }
        Fault fault = firing(Fault.Phase.AFTER_RESPONSE, attempt);
        if (fault == null) {
            emulateMissingOperation(context, attempt);
            return;
        }
        if (fault.isConnectionReset()) {
            RuntimeException failure = connectionReset();
            synchronized (LOCK) {
                attempt.injected = fault.toString();
                attempt.failed(failure, null, null);
            }
            throw failure;
        }
        // An error response replaces the real one in modifyHttpResponse(Content); the SDK unmarshals it.
        byte[] body = errorBody(fault, attempt, isJsonProtocol(context.httpRequest()));
        synchronized (LOCK) {
            attempt.injected = fault.toString();
            attempt.rewrite = fault;
            attempt.rewriteBody = body;
            attempt.httpStatus = fault.httpStatus();
            attempt.errorCode = fault.errorCode();
        }
    }

    // ---------------------------------------------------------------- operations MiniStack lacks

    /**
     * MiniStack 1.5.33 has no {@code BatchDeletePartition} (it answers {@code InvalidAction}); the kit then
     * deletes each partition of the request with MiniStack's {@code DeletePartition} (same endpoint, same
     * credentials header, so the same account) and answers as AWS Glue would: {@code {"Errors": [...]}}
     * with a partition MiniStack does not have reported as {@code EntityNotFoundException}. Only a request
     * that reached MiniStack and was refused as unknown is emulated, so a MiniStack that learns the
     * operation answers itself.
     */
    private static void emulateMissingOperation(Context.AfterTransmission context, Attempt attempt) {
        if (!GLUE.equals(attempt.service) || !"BatchDeletePartition".equals(attempt.operation)
                || context.httpResponse().isSuccessful() || !"InvalidAction".equals(attempt.errorCode)
                || !(context.request() instanceof software.amazon.awssdk.services.glue.model.BatchDeletePartitionRequest)) {
            return;
        }
        var request = (software.amazon.awssdk.services.glue.model.BatchDeletePartitionRequest) context.request();
        SdkHttpRequest http = context.httpRequest();
        java.net.URI endpoint = java.net.URI.create(http.protocol() + "://" + http.host() + ":" + http.port() + "/");
        StringBuilder errors = new StringBuilder();
        java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
        try {
            for (var partition : request.partitionsToDelete()) {
                StringBuilder values = new StringBuilder();
                for (String v : partition.values()) {
                    values.append(values.length() == 0 ? "" : ",").append(SdkJson.quoted(v));
                }
                String keyBody = "\"DatabaseName\":" + SdkJson.quoted(request.databaseName()) + ",\"TableName\":"
                        + SdkJson.quoted(request.tableName()) + ",\"PartitionValues\":[" + values + "]";
                if (!exists(client, endpoint, http, "GetPartition", keyBody)) {
                    errors.append(errors.length() == 0 ? "" : ",").append("{\"PartitionValues\":[").append(values)
                            .append("],\"ErrorDetail\":{\"ErrorCode\":\"EntityNotFoundException\",")
                            .append("\"ErrorMessage\":\"Partition not found\"}}");
                    continue;
                }
                exists(client, endpoint, http, "DeletePartition", keyBody);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        synchronized (LOCK) {
            attempt.emulatedBody = ("{\"Errors\":[" + errors + "]}").getBytes(StandardCharsets.UTF_8);
            attempt.httpStatus = 200;
            attempt.errorCode = null;
        }
    }

    /** Sends one Glue JSON call to MiniStack as the original request's caller; true on HTTP 200. */
    private static boolean exists(java.net.http.HttpClient client, java.net.URI endpoint, SdkHttpRequest original,
                                  String operation, String body) throws IOException, InterruptedException {
        java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder(endpoint)
                .header("Content-Type", "application/x-amz-json-1.1")
                .header("X-Amz-Target", "AWSGlue." + operation)
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{" + body + "}"));
        original.firstMatchingHeader("Authorization").ifPresent(a -> request.header("Authorization", a));
        return client.send(request.build(), java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    }

    @Override
    public SdkHttpResponse modifyHttpResponse(Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
        Attempt attempt = attributes.getAttribute(CURRENT);
        if (attempt != null && attempt.emulatedBody != null) {
            return context.httpResponse().toBuilder().statusCode(200).statusText(null).clearHeaders()
                    .putHeader("x-amzn-RequestId", requestId(attempt))
                    .putHeader("Content-Type", "application/x-amz-json-1.1")
                    .putHeader("Content-Length", String.valueOf(attempt.emulatedBody.length)).build();
        }
        Fault fault = attempt == null ? null : attempt.rewrite();
        if (fault == null) {
            return context.httpResponse();
        }
        SdkHttpResponse.Builder error = context.httpResponse().toBuilder()
                .statusCode(fault.httpStatus())
                .statusText(null)
                .clearHeaders()
                .putHeader("x-amzn-RequestId", requestId(attempt))
                .putHeader("Content-Length", String.valueOf(attempt.rewriteBody().length));
        if (isJsonProtocol(context.httpRequest())) {
            error.putHeader("Content-Type", "application/x-amz-json-1.1").putHeader("x-amzn-ErrorType", fault.errorCode());
        } else {
            error.putHeader("Content-Type", "text/xml");
        }
        return error.build();
    }

    @Override
    public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context,
                                                           ExecutionAttributes attributes) {
        Attempt attempt = attributes.getAttribute(CURRENT);
        if (attempt == null || context.responseBody().isEmpty()) {
            return context.responseBody();
        }
        if (attempt.rewrite() != null) {
            drain(context.responseBody().get());   // lets the connection go back to the pool
            return Optional.of(new ByteArrayInputStream(attempt.rewriteBody()));
        }
        if (attempt.emulatedBody != null) {
            drain(context.responseBody().get());
            return Optional.of(new ByteArrayInputStream(attempt.emulatedBody));
        }
        if (context.httpResponse().isSuccessful()) {
            return context.responseBody();
        }
        // A real error response: read its code (STS sends it only in the body), then hand the bytes on.
        byte[] body = drain(context.responseBody().get());
        String code = errorCode(new String(body, StandardCharsets.UTF_8));
        synchronized (LOCK) {
            if (attempt.errorCode == null) {
                attempt.errorCode = code;
            }
        }
        return Optional.of(new ByteArrayInputStream(body));
    }

    @Override
    public Optional<Publisher<ByteBuffer>> modifyAsyncHttpResponseContent(Context.ModifyHttpResponse context,
                                                                           ExecutionAttributes attributes) {
        Attempt attempt = attributes.getAttribute(CURRENT);
        if (attempt == null || attempt.rewrite() == null) {
            return context.responsePublisher();
        }
        return Optional.of(AsyncRequestBody.fromBytes(attempt.rewriteBody()));
    }

    @Override
    public void afterUnmarshalling(Context.AfterUnmarshalling context, ExecutionAttributes attributes) {
        Attempt attempt = attributes.getAttribute(CURRENT);
        if (attempt == null) {
            return;
        }
        // AssumeRole*: note which key STS handed out (its id only), to follow it into later Glue calls.
        String returnedKey = attempt.roleArn == null ? null
                : string(field(field(context.response(), "Credentials"), "AccessKeyId"));
        synchronized (LOCK) {
            attempt.outcome = GlueCall.Outcome.SUCCEEDED;
            attempt.returnedAccessKeyId = returnedKey;
        }
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        Attempt attempt = attributes.getAttribute(CURRENT);
        if (attempt == null) {
            return;
        }
        Throwable failure = context.exception();
        synchronized (LOCK) {
            if (failure instanceof AwsServiceException e) {
                attempt.failed(failure, e.statusCode(),
                        e.awsErrorDetails() == null ? attempt.errorCode : e.awsErrorDetails().errorCode());
            } else {
                attempt.failed(failure, attempt.httpStatus, attempt.errorCode);
            }
        }
    }

    // ---------------------------------------------------------------- helpers

    private static String recordedService(ExecutionAttributes attributes) {
        String service = attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME);
        return GLUE.equalsIgnoreCase(service) ? GLUE : STS.equalsIgnoreCase(service) ? STS : null;
    }

    /** The first armed fault of this phase that fires on this attempt, or null. */
    private static Fault firing(Fault.Phase phase, Attempt attempt) {
        synchronized (LOCK) {
            if (FAULTS.isEmpty()) {
                return null;
            }
            GlueCall call = attempt.toCall();
            for (Fault.Handle handle : FAULTS) {
                if (handle.fault().phase() == phase && handle.fireOn(call)) {
                    return handle.fault();
                }
            }
            return null;
        }
    }

    /** The SDK's own attempt counter ("amz-sdk-request: attempt=2; max=4"), else counted here. */
    private static int attemptNumber(SdkHttpRequest request, Attempt previous) {
        Optional<String> header = request.firstMatchingHeader("amz-sdk-request");
        if (header.isPresent()) {
            Matcher m = ATTEMPT.matcher(header.get());
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
        }
        return previous == null ? 1 : previous.attempt + 1;
    }

    /** The modelled exception the SDK would unmarshal for this error code, built by reflection. */
    private static AwsServiceException serviceException(Fault fault, Attempt attempt, SdkRequest request) {
        String message = fault.message(attempt.operation);
        String requestId = requestId(attempt);
        SdkHttpResponse http = SdkHttpResponse.builder()
                .statusCode(fault.httpStatus())
                .putHeader("x-amzn-RequestId", requestId)
                .build();
        return exceptionBuilder(fault, attempt.service, request.getClass())
                .message(message)
                .statusCode(fault.httpStatus())
                .requestId(requestId)
                .awsErrorDetails(AwsErrorDetails.builder()
                        .errorCode(fault.errorCode())
                        .errorMessage(message)
                        .serviceName(attempt.service)
                        .sdkHttpResponse(http)
                        .build())
                .build();
    }

    private static AwsServiceException.Builder exceptionBuilder(Fault fault, String service, Class<?> requestClass) {
        String model = requestClass.getPackageName();   // e.g. software.amazon.awssdk.services.glue.model
        List<String> candidates = fault.exceptionClass() != null
                ? List.of(fault.exceptionClass().getName())
                : List.of(model + "." + fault.errorCode(), model + "." + fault.errorCode() + "Exception",
                          model + "." + service + "Exception");
        for (String name : candidates) {
            try {
                Class<?> type = Class.forName(name, true, requestClass.getClassLoader());
                if (AwsServiceException.class.isAssignableFrom(type)) {
                    return (AwsServiceException.Builder) type.getMethod("builder").invoke(null);
                }
            } catch (ClassNotFoundException e) {
                // try the next name
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot build " + name, e);
            }
        }
        return AwsServiceException.builder();
    }

    /** What the SDK throws when a connection is reset under it (checked against a real reset). */
    private static SdkClientException connectionReset() {
        return SdkClientException.builder()
                .message("Unable to execute HTTP request: Connection reset")
                .cause(new SocketException("Connection reset"))
                .build();
    }

    /** An AWS error body: awsJson for Glue, awsQuery XML for STS. */
    private static byte[] errorBody(Fault fault, Attempt attempt, boolean json) {
        String message = fault.message(attempt.operation);
        String body = json
                ? "{\"__type\":\"" + jsonEscape(fault.errorCode()) + "\",\"Message\":\"" + jsonEscape(message) + "\"}"
                : "<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><Error><Type>"
                  + (fault.httpStatus() >= 500 ? "Receiver" : "Sender") + "</Type><Code>" + xmlEscape(fault.errorCode())
                  + "</Code><Message>" + xmlEscape(message) + "</Message></Error><RequestId>" + requestId(attempt)
                  + "</RequestId></ErrorResponse>";
        return body.getBytes(StandardCharsets.UTF_8);
    }

    private static String requestId(Attempt attempt) {
        return "gluecat-fault-" + attempt.sequence;
    }

    private static boolean isJsonProtocol(SdkHttpRequest request) {
        return request.firstMatchingHeader("Content-Type").map(t -> t.startsWith("application/x-amz-json")).orElse(false);
    }

    private static String errorCode(String body) {
        Matcher json = JSON_ERROR_TYPE.matcher(body);
        if (json.find()) {
            String type = json.group(1);
            return type.substring(type.lastIndexOf('#') + 1);
        }
        Matcher xml = XML_ERROR_CODE.matcher(body);
        return xml.find() ? xml.group(1) : null;
    }

    private static byte[] drain(InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String jsonEscape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static String xmlEscape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** A member of a request/response/nested model object by its AWS name, or null. */
    private static Object field(Object pojo, String name) {
        if (pojo instanceof SdkPojo p) {
            for (SdkField<?> f : p.sdkFields()) {
                if (f.memberName().equals(name)) {
                    return f.getValueOrDefault(pojo);
                }
            }
        }
        return null;
    }

    private static String string(Object value) {
        return value instanceof String s ? s : null;
    }

    /** The mutable record of one attempt; fields after construction are guarded by LOCK. */
    private static final class Attempt {
        final String service;
        final String operation;
        final int attempt;
        final String endpoint;
        final String catalogId;
        final String databaseName;
        final String tableName;
        final String accessKeyId;
        final boolean sessionToken;
        final String userAgent;
        final String roleArn;
        final String externalId;
        final String roleSessionName;
        final String versionId;
        final Boolean skipArchive;
        final Integer maxResults;
        final String nextToken;
        final String expression;
        final String segment;

        long sequence;
        GlueCall.Outcome outcome = GlueCall.Outcome.IN_FLIGHT;
        Integer httpStatus;
        String errorCode;
        String exception;
        String injected;
        String returnedAccessKeyId;
        Integer returned;
        Fault rewrite;
        byte[] rewriteBody;
        /** The answer the kit gives instead of MiniStack's, for an operation it emulates (BatchDeletePartition). */
        byte[] emulatedBody;

        Attempt(String service, String operation, int attempt, SdkRequest request, SdkHttpRequest http,
                String sentToken, String sentTable) {
            this.service = service;
            this.operation = operation;
            this.attempt = attempt;
            this.endpoint = http.protocol() + "://" + http.host() + ":" + http.port();
            this.catalogId = string(field(request, "CatalogId"));
            this.accessKeyId = http.firstMatchingHeader("Authorization")
                    .map(CREDENTIAL::matcher).filter(Matcher::find).map(m -> m.group(1)).orElse(null);
            this.sessionToken = http.firstMatchingHeader("X-Amz-Security-Token").isPresent();
            this.userAgent = http.firstMatchingHeader("User-Agent").orElse(null);

            boolean glue = GLUE.equals(service);
            String database = glue ? string(field(request, "DatabaseName")) : null;
            String table = glue ? string(field(request, "TableName")) : null;
            if (glue && table == null) {
                table = string(field(field(request, "TableInput"), "Name"));
            }
            if (glue && table == null && database != null && operation != null && operation.contains("Table")) {
                table = string(field(request, "Name"));             // GetTable, DeleteTable
            }
            if (glue && database == null && operation != null && operation.contains("Database")) {
                database = string(field(request, "Name"));          // GetDatabase, UpdateDatabase, DeleteDatabase
                if (database == null) {
                    database = string(field(field(request, "DatabaseInput"), "Name"));   // CreateDatabase
                }
            }
            this.databaseName = database;
            this.tableName = sentTable != null ? sentTable : table;
            this.versionId = glue ? string(field(request, "VersionId")) : null;            // UpdateTable
            Object skip = glue ? field(request, "SkipArchive") : null;
            this.skipArchive = skip instanceof Boolean ? (Boolean) skip : null;
            Object max = field(request, "MaxResults");
            this.maxResults = max instanceof Integer ? (Integer) max : null;
            this.nextToken = sentToken != null ? sentToken : string(field(request, "NextToken"));
            this.expression = glue ? string(field(request, "Expression")) : null;
            Object segment = glue ? field(request, "Segment") : null;
            this.segment = segment == null ? null
                    : field(segment, "SegmentNumber") + "/" + field(segment, "TotalSegments");

            boolean sts = STS.equals(service);
            this.roleArn = sts ? string(field(request, "RoleArn")) : null;
            this.externalId = sts ? string(field(request, "ExternalId")) : null;
            this.roleSessionName = sts ? string(field(request, "RoleSessionName")) : null;
        }

        /** Called with LOCK held. */
        void failed(Throwable failure, Integer status, String code) {
            outcome = GlueCall.Outcome.FAILED;
            exception = failure.getClass().getName();
            httpStatus = status;
            errorCode = code;
        }

        Fault rewrite() {
            synchronized (LOCK) {
                return rewrite;
            }
        }

        byte[] rewriteBody() {
            synchronized (LOCK) {
                return rewriteBody;
            }
        }

        /** Called with LOCK held. */
        GlueCall toCall() {
            GlueCall.AssumeRole assumeRole = roleArn == null ? null
                    : new GlueCall.AssumeRole(roleArn, externalId, roleSessionName, returnedAccessKeyId);
            return new GlueCall(sequence, service, operation, attempt, endpoint, catalogId, databaseName, tableName,
                    versionId, skipArchive, accessKeyId, sessionToken, userAgent, outcome, httpStatus, errorCode, exception, injected,
                    assumeRole, maxResults, nextToken, expression, segment, returned);
        }
    }
}
