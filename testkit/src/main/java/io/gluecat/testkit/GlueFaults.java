package io.gluecat.testkit;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * Injects faults into the Glue and STS calls of this JVM, through {@link GlueCallRecorder}'s interceptor (no
 * client needs configuring). State is static and thread safe.
 *
 * <p>{@link #inject(Fault)} arms a fault until its handle is closed or {@link #clear()}. What the caller
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
 * Counting is per attempt of a matching call (each one a {@link GlueCall} of the recorder); when several armed
 * faults match an attempt, the first armed one that fires wins and the later ones do not see that attempt.
 */
public final class GlueFaults {

    private static final List<Fault.Handle> FAULTS = new ArrayList<>();      // guarded by GlueCallRecorder.LOCK

    private GlueFaults() {
    }

    /** Arms a fault; close the handle to remove it. */
    public static Fault.Handle inject(Fault fault) {
        Fault.Handle handle = new Fault.Handle(fault);
        synchronized (GlueCallRecorder.LOCK) {
            FAULTS.add(handle);
        }
        return handle;
    }

    /** Removes every armed fault (the recorded calls stay). */
    public static void clear() {
        synchronized (GlueCallRecorder.LOCK) {
            FAULTS.clear();
        }
    }

    static void remove(Fault.Handle handle) {
        synchronized (GlueCallRecorder.LOCK) {
            FAULTS.remove(handle);
        }
    }

    // ---------------------------------------------------------------- called by the interceptor, once per attempt

    /** Throws what the first armed {@link Fault.Phase#BEFORE_SEND} fault firing on this attempt makes the SDK see. */
    static void beforeSend(Context.BeforeTransmission context, Attempt attempt) {
        Fault fault = firing(Fault.Phase.BEFORE_SEND, attempt);
        if (fault == null) {
            return;
        }
        RuntimeException failure = fault.isConnectionReset()
                ? AwsErrors.connectionReset()
                : AwsErrors.serviceException(fault, attempt, context.request());
        synchronized (GlueCallRecorder.LOCK) {
            attempt.injected = fault.toString();
            attempt.failed(failure, fault.isConnectionReset() ? null : fault.httpStatus(),
                    fault.xmlBody() ? null : fault.errorCode());
        }
        throw failure;
    }

    /**
     * With an {@link Fault.Phase#AFTER_RESPONSE} fault firing on this attempt: throws a connection reset, or marks
     * the attempt's response to be replaced by the fault's error response ({@link #errorResponse}); false if
     * none fired.
     */
    static boolean afterResponse(Context.AfterTransmission context, Attempt attempt) {
        Fault fault = firing(Fault.Phase.AFTER_RESPONSE, attempt);
        if (fault == null) {
            return false;
        }
        if (fault.isConnectionReset()) {
            RuntimeException failure = AwsErrors.connectionReset();
            synchronized (GlueCallRecorder.LOCK) {
                attempt.injected = fault.toString();
                attempt.failed(failure, null, null);
            }
            throw failure;
        }
        // An error response replaces the real one in modifyHttpResponse(Content); the SDK unmarshals it.
        byte[] body = AwsErrors.errorBody(fault, attempt, AwsErrors.isJsonProtocol(context.httpRequest()));
        synchronized (GlueCallRecorder.LOCK) {
            attempt.injected = fault.toString();
            attempt.rewrite = fault;
            attempt.rewriteBody = body;
            attempt.httpStatus = fault.httpStatus();
            attempt.errorCode = fault.errorCode();
        }
        return true;
    }

    /** The injected error response's status and headers for a marked attempt; its body is the attempt's rewriteBody. */
    static SdkHttpResponse errorResponse(Context.ModifyHttpResponse context, Attempt attempt, Fault fault) {
        SdkHttpResponse.Builder error = context.httpResponse().toBuilder()
                .statusCode(fault.httpStatus())
                .statusText(null)
                .clearHeaders()
                .putHeader("x-amzn-RequestId", AwsErrors.requestId(attempt))
                .putHeader("Content-Length", String.valueOf(attempt.rewriteBody().length));
        if (AwsErrors.isJsonProtocol(context.httpRequest()) && !fault.xmlBody()) {
            error.putHeader("Content-Type", "application/x-amz-json-1.1").putHeader("x-amzn-ErrorType", fault.errorCode());
        } else {
            error.putHeader("Content-Type", "text/xml");
        }
        return error.build();
    }

    /** The first armed fault of this phase that fires on this attempt, or null. */
    private static Fault firing(Fault.Phase phase, Attempt attempt) {
        synchronized (GlueCallRecorder.LOCK) {
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
}
