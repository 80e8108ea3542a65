package io.gluecat.testkit;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.reactivestreams.Publisher;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.glue.model.GetDatabasesResponse;
import software.amazon.awssdk.services.glue.model.GetPartitionsResponse;
import software.amazon.awssdk.services.glue.model.GetTablesResponse;

/**
 * Records every Glue and STS request the AWS SDK v2 sends in this JVM; the kit's one SDK interceptor.
 *
 * <h2>Registration</h2>
 * The SDK loads every class named in {@code software/amazon/awssdk/global/handlers/execution.interceptors}
 * on the classpath into every client it builds, so having the testkit jar on the classpath is enough: no
 * client needs configuring (do not also add it by hand, or calls are recorded twice). The SDK creates one
 * instance per client; all state is static, shared by the JVM, and thread safe. Clients of other services
 * pass through untouched. The same interceptor serves the kit's other parts, each a class of its own:
 * {@link GlueFaults} (injected failures), {@link GlueSemantics} (Glue's answers where MiniStack differs) and
 * {@link GlueRendezvous} (attempts held until they meet). {@link #reset()} resets them all.
 *
 * <h2>Recording</h2>
 * One {@link GlueCall} per HTTP attempt, added when the signed request is about to be sent (so the access
 * key is the one actually used) and completed when the attempt ends. An SDK retry is a new record with a
 * higher {@link GlueCall#attempt()}. Secret keys and session tokens are never read, only the key id from the
 * {@code Authorization} header and whether a token header was present. {@link #clear()} between tests;
 * beyond {@value #MAX_CALLS} records the oldest are dropped.
 */
public final class GlueCallRecorder implements ExecutionInterceptor {

    /** {@link GlueCall#service()} of Glue calls: the SDK's service name. */
    public static final String GLUE = "Glue";
    /** {@link GlueCall#service()} of STS calls: the SDK's service name. */
    public static final String STS = "Sts";
    /** Records kept; older ones are dropped so a long test JVM cannot fill its heap. */
    public static final int MAX_CALLS = 100_000;

    /**
     * Guards the kit's state: the records and each {@link Attempt}'s fields, the armed faults and the semantics'
     * switches. One lock, as faults match an attempt's record while the recorder completes it.
     */
    static final Object LOCK = new Object();
    private static final Deque<Attempt> CALLS = new ArrayDeque<>();          // guarded by LOCK
    private static long sequence;                                             // guarded by LOCK

    private static final Pattern ATTEMPT = Pattern.compile("attempt=(\\d+)");

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

    /** Forgets the recorded calls (armed faults and switches stay). */
    public static void clear() {
        synchronized (LOCK) {
            CALLS.clear();
        }
    }

    /**
     * The whole kit back to its start, for between tests: records cleared ({@link #clear()}), faults disarmed
     * ({@link GlueFaults#clear()}), every behaviour of {@link GlueSemantics} back on, no {@link GlueRendezvous} meeting.
     */
    public static void reset() {
        clear();
        GlueFaults.clear();
        GlueSemantics.reset();
        GlueRendezvous.reset();
    }

    // ---------------------------------------------------------------- SDK hooks

    /** Once per call: a stand-in may rewrite a listing request (the record keeps what the caller sent). */
    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
        return GlueSemantics.modifyRequest(context.request(), attributes);
    }

    /** Once per call, before signing: the body as Glue reads it (computed here, the first of the three hooks). */
    @Override
    public Optional<AsyncRequestBody> modifyAsyncHttpContent(Context.ModifyHttpRequest context,
                                                             ExecutionAttributes attributes) {
        byte[] body = rewrittenBody(context, attributes);
        return body == null || context.asyncRequestBody().isEmpty() ? context.asyncRequestBody()
                : Optional.of(AsyncRequestBody.fromBytes(body));
    }

    @Override
    public Optional<RequestBody> modifyHttpContent(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        byte[] body = rewrittenBody(context, attributes);
        return body == null ? context.requestBody() : Optional.of(RequestBody.fromBytes(body));
    }

    @Override
    public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        byte[] body = rewrittenBody(context, attributes);
        return body == null ? context.httpRequest()
                : context.httpRequest().toBuilder().putHeader("Content-Length", String.valueOf(body.length)).build();
    }

    /** The rewritten request body of this call (once per call), or null to send the SDK's. */
    private static byte[] rewrittenBody(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        byte[] kept = attributes.getAttribute(REWRITTEN_BODY);
        if (kept == null) {
            byte[] body = GlueSemantics.rewrittenBody(context, attributes);
            kept = body == null ? NOT_REWRITTEN : body;
            attributes.putAttribute(REWRITTEN_BODY, kept);
        }
        return kept == NOT_REWRITTEN ? null : kept;
    }

    private static final byte[] NOT_REWRITTEN = new byte[0];
    private static final ExecutionAttribute<byte[]> REWRITTEN_BODY =
            new ExecutionAttribute<>("io.gluecat.testkit.GlueCallRecorder.rewrittenBody");

    /** Once per call: the answer as Glue would give it, then counted as the caller gets it. */
    @Override
    public SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes attributes) {
        return counted(attributes, GlueSemantics.modifyResponse(context, attributes));
    }

    /** Notes how many entries a listing's answer holds, as the caller gets it. */
    private static SdkResponse counted(ExecutionAttributes attributes, SdkResponse response) {
        Attempt attempt = attributes.getAttribute(Attempt.CURRENT);
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

    /** Per attempt, signed: meet, wait, record, then fail as a fault says or refuse as Glue would. */
    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        String service = recordedService(attributes);
        if (service == null) {
            return;
        }
        GlueRendezvous.arrive(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME));
        GlueSemantics.delay();
        Attempt previous = attributes.getAttribute(Attempt.CURRENT);
        Attempt attempt = new Attempt(service, attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME),
                attemptNumber(context.httpRequest(), previous), context.request(), context.httpRequest(),
                attributes.getAttribute(Attempt.SENT_TOKEN), attributes.getAttribute(Attempt.SENT_TABLE));
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
        attributes.putAttribute(Attempt.CURRENT, attempt);

        GlueFaults.beforeSend(context, attempt);
        GlueSemantics.beforeSend(context, attributes, attempt);
    }

    /** Per attempt, answered: record the status, then fail as a fault says or answer what MiniStack lacks. */
    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        Attempt attempt = attributes.getAttribute(Attempt.CURRENT);
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
        if (!GlueFaults.afterResponse(context, attempt)) {
            GlueSemantics.afterResponse(context, attempt);
        }
    }

    @Override
    public SdkHttpResponse modifyHttpResponse(Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
        Attempt attempt = attributes.getAttribute(Attempt.CURRENT);
        SdkHttpResponse emulated = attempt == null ? null : GlueSemantics.emulatedResponse(context, attempt);
        if (emulated != null) {
            return emulated;
        }
        Fault fault = attempt == null ? null : attempt.rewrite();
        return fault == null ? context.httpResponse() : GlueFaults.errorResponse(context, attempt, fault);
    }

    @Override
    public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context,
                                                           ExecutionAttributes attributes) {
        Attempt attempt = attributes.getAttribute(Attempt.CURRENT);
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
        String code = AwsErrors.errorCode(new String(body, StandardCharsets.UTF_8));
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
        Attempt attempt = attributes.getAttribute(Attempt.CURRENT);
        if (attempt == null || attempt.rewrite() == null) {
            return context.responsePublisher();
        }
        return Optional.of(AsyncRequestBody.fromBytes(attempt.rewriteBody()));
    }

    @Override
    public void afterUnmarshalling(Context.AfterUnmarshalling context, ExecutionAttributes attributes) {
        Attempt attempt = attributes.getAttribute(Attempt.CURRENT);
        if (attempt == null) {
            return;
        }
        // AssumeRole*: note which key STS handed out (its id only), to follow it into later Glue calls.
        String returnedKey = attempt.roleArn == null ? null
                : Attempt.string(Attempt.field(Attempt.field(context.response(), "Credentials"), "AccessKeyId"));
        synchronized (LOCK) {
            attempt.outcome = GlueCall.Outcome.SUCCEEDED;
            attempt.returnedAccessKeyId = returnedKey;
        }
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        Attempt attempt = attributes.getAttribute(Attempt.CURRENT);
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

    private static byte[] drain(InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
