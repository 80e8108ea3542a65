package io.gluecat.testkit;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import software.amazon.awssdk.awscore.exception.AwsServiceException;

/**
 * A failure for {@link GlueFaults} to inject into Glue or STS calls. Immutable; build one with
 * {@link #glue(String)} or {@link #sts(String)} and arm it with {@link GlueFaults#inject(Fault)}.
 *
 * <pre>{@code
 * try (Fault.Handle h = GlueFaults.inject(
 *         Fault.glue("UpdateTable").onCall(2).concurrentModification().build())) {
 *     ... // the second UpdateTable attempt fails with ConcurrentModificationException
 * }
 * }</pre>
 *
 * <p>Counting is per HTTP attempt, the same unit as {@link GlueCallRecorder#calls()}: an SDK retry is
 * a matching call of its own. By default a fault fires once, on the first matching attempt;
 * {@link Builder#onCall(int)} moves that to the n-th, {@link Builder#times(int)} lets it fire on
 * that many consecutive matching attempts, {@link Builder#always()} on every one from then on.
 * Two ways to fail only some of the attempts in that window, as a throttled account sees it at load:
 * {@link Builder#share(double, long)} fails a steady share of them, chosen by a seed (so a run's sequence of
 * decisions repeats), and {@link Builder#aboveRate(double, int)} fails those beyond a request rate, as a
 * service quota does.
 * See {@link GlueFaults} for what each {@link Phase} means to the caller and the server.
 */
public final class Fault {

    /** When the fault strikes. */
    public enum Phase {
        /** The request never reaches the server: nothing is applied there. */
        BEFORE_SEND,
        /** The server received and applied the request; the client is told it failed. */
        AFTER_RESPONSE
    }

    private final String service;
    private final String operation;
    private final Predicate<GlueCall> when;
    private final int onCall;
    private final int times;
    private final Phase phase;
    private final String errorCode;        // null means a connection reset
    private final int httpStatus;
    private final String message;
    private final Class<? extends AwsServiceException> exceptionClass;
    private final boolean xmlBody;
    private final double share;
    private final long seed;
    private final double ratePerSecond;
    private final int burst;

    private Fault(Builder b) {
        this.service = b.service;
        this.operation = b.operation;
        this.when = b.when;
        this.onCall = b.onCall;
        this.times = b.times;
        this.phase = b.phase;
        this.errorCode = b.errorCode;
        this.httpStatus = b.httpStatus;
        this.message = b.message;
        this.exceptionClass = b.exceptionClass;
        this.xmlBody = b.xmlBody;
        this.share = b.share;
        this.seed = b.seed;
        this.ratePerSecond = b.ratePerSecond;
        this.burst = b.burst;
    }

    /** A fault on a Glue operation, e.g. {@code "UpdateTable"}; null means every Glue operation. */
    public static Builder glue(String operation) {
        return new Builder(GlueCallRecorder.GLUE, operation);
    }

    /** A fault on an STS operation, e.g. {@code "AssumeRole"}; null means every STS operation. */
    public static Builder sts(String operation) {
        return new Builder(GlueCallRecorder.STS, operation);
    }

    public String service() {
        return service;
    }

    public String operation() {
        return operation;
    }

    public Phase phase() {
        return phase;
    }

    /** The AWS error code this fault produces; null for a connection reset. */
    public String errorCode() {
        return errorCode;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public boolean isConnectionReset() {
        return errorCode == null;
    }

    /** The message of the injected error. */
    public String message(String operationName) {
        return message != null ? message
                : "Injected " + errorCode + " for " + service + "." + operationName + " (gluecat testkit)";
    }

    Class<? extends AwsServiceException> exceptionClass() {
        return exceptionClass;
    }

    /** Whether the error comes with an XML body even where the service speaks JSON ({@link Builder#accessDeniedAsXml}). */
    boolean xmlBody() {
        return xmlBody;
    }

    boolean matches(GlueCall call) {
        return service.equalsIgnoreCase(call.service())
                && (operation == null || operation.equals(call.operation()))
                && when.test(call);
    }

    @Override
    public String toString() {
        return phase + " " + (isConnectionReset() ? "connection reset" : errorCode + " (HTTP " + httpStatus + ")")
                + " on " + service + "." + (operation == null ? "*" : operation)
                + " call " + onCall + (times == Integer.MAX_VALUE ? " onwards" : times > 1 ? " x" + times : "")
                + (share < 1 ? " on " + Math.round(share * 100) + "% (seed " + seed + ")" : "")
                + (ratePerSecond > 0 ? " above " + ratePerSecond + "/s (burst " + burst + ")" : "");
    }

    /** Whether the n-th matching attempt is in the {@link Builder#share} this fault fails: a hash of seed and n. */
    private boolean inShare(long n) {
        if (share >= 1) {
            return true;
        }
        long z = seed + n * 0x9E3779B97F4A7C15L;            // SplitMix64's mixer: the same n and seed, the same answer
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return (z >>> 11) * 0x1.0p-53 < share;
    }

    /** An armed fault: removes itself on {@link #close()} and counts what it did. */
    public static final class Handle implements AutoCloseable {
        private final Fault fault;
        private final AtomicInteger matched = new AtomicInteger();
        private final AtomicInteger fired = new AtomicInteger();
        private double tokens;                 // aboveRate's bucket, guarded by GlueCallRecorder.LOCK
        private long refilled;

        Handle(Fault fault) {
            this.fault = fault;
            this.tokens = fault.burst;
            this.refilled = System.nanoTime();
        }

        public Fault fault() {
            return fault;
        }

        /** Matching attempts seen so far, fired or not. */
        public int matched() {
            return matched.get();
        }

        /** Attempts this fault failed so far. */
        public int fired() {
            return fired.get();
        }

        /** Decides, for one matching attempt, whether the fault fires; counts both. */
        boolean fireOn(GlueCall call) {
            if (!fault.matches(call)) {
                return false;
            }
            int n = matched.incrementAndGet();
            // Fires on matching attempts onCall .. onCall + times - 1 (overflow-safe for always()).
            boolean fire = n >= fault.onCall && n - fault.onCall < fault.times && fault.inShare(n) && overRate();
            if (fire) {
                fired.incrementAndGet();
            }
            return fire;
        }

        /** With {@link Builder#aboveRate}: takes a token for this attempt; true when none was left. */
        private boolean overRate() {
            if (fault.ratePerSecond <= 0) {
                return true;
            }
            long now = System.nanoTime();
            tokens = Math.min(fault.burst, tokens + (now - refilled) / 1e9 * fault.ratePerSecond);
            refilled = now;
            if (tokens >= 1) {
                tokens -= 1;
                return false;
            }
            return true;
        }

        @Override
        public void close() {
            GlueFaults.remove(this);
        }
    }

    /** Builds a {@link Fault}; defaults: {@link Phase#BEFORE_SEND}, first matching attempt, once. */
    public static final class Builder {
        private final String service;
        private final String operation;
        private Predicate<GlueCall> when = c -> true;
        private int onCall = 1;
        private int times = 1;
        private Phase phase = Phase.BEFORE_SEND;
        private String errorCode;
        private int httpStatus;
        private String message;
        private boolean failureSet;
        private Class<? extends AwsServiceException> exceptionClass;
        private boolean xmlBody;
        private double share = 1;
        private long seed;
        private double ratePerSecond;
        private int burst;

        private Builder(String service, String operation) {
            this.service = service;
            this.operation = operation;
        }

        /** Only attempts whose recorded call passes this, e.g. {@code c -> "t1".equals(c.tableName())}. */
        public Builder when(Predicate<GlueCall> predicate) {
            this.when = Objects.requireNonNull(predicate);
            return this;
        }

        /** Fire on the n-th matching attempt (1-based) instead of the first. */
        public Builder onCall(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("onCall is 1-based: " + n);
            }
            this.onCall = n;
            return this;
        }

        /** Fire on this many consecutive matching attempts. */
        public Builder times(int k) {
            if (k < 1) {
                throw new IllegalArgumentException("times must be positive: " + k);
            }
            this.times = k;
            return this;
        }

        /** Fire on every matching attempt (from {@link #onCall(int)} on) until removed. */
        public Builder always() {
            this.times = Integer.MAX_VALUE;
            return this;
        }

        /**
         * Fire on only {@code fraction} (0 to 1) of the matching attempts in the window ({@link #always()} for a
         * steady share), chosen from the attempt's number and {@code seed}: a seed fails the same ones every run.
         */
        public Builder share(double fraction, long seed) {
            if (!(fraction >= 0 && fraction <= 1)) {
                throw new IllegalArgumentException("share is a fraction from 0 to 1: " + fraction);
            }
            this.share = fraction;
            this.seed = seed;
            return this;
        }

        /**
         * Fire on the matching attempts beyond {@code perSecond} a second, as a request quota does: a token bucket
         * of {@code burst}, refilled at that rate; an attempt that finds it empty fails. Use with {@link #always()}.
         * Depends on time: for benchmarks, never for what a test asserts.
         */
        public Builder aboveRate(double perSecond, int burst) {
            if (!(perSecond > 0) || burst < 1) {
                throw new IllegalArgumentException("aboveRate needs a positive rate and burst: " + perSecond + ", " + burst);
            }
            this.ratePerSecond = perSecond;
            this.burst = burst;
            return this;
        }

        public Builder phase(Phase phase) {
            this.phase = Objects.requireNonNull(phase);
            return this;
        }

        /** The request never reaches the server (the default). */
        public Builder beforeSend() {
            return phase(Phase.BEFORE_SEND);
        }

        /** The server applies the request; the client sees the failure. */
        public Builder afterResponse() {
            return phase(Phase.AFTER_RESPONSE);
        }

        /** Any AWS error: the code as AWS sends it and its HTTP status. */
        public Builder error(String errorCode, int httpStatus) {
            this.errorCode = Objects.requireNonNull(errorCode);
            this.httpStatus = httpStatus;
            this.failureSet = true;
            return this;
        }

        /** Overrides the error message (default: "Injected &lt;code&gt; for &lt;service.operation&gt; ..."). */
        public Builder message(String message) {
            this.message = message;
            return this;
        }

        /**
         * The exception class a {@link Phase#BEFORE_SEND} error is thrown as. Only needed when the model
         * class is not named after the error code (the code, or the code + "Exception"); otherwise the
         * class is found by that name, falling back to the service's base exception as the SDK does.
         */
        public Builder exceptionClass(Class<? extends AwsServiceException> type) {
            this.exceptionClass = type;
            return this;
        }

        /** The connection drops: the SDK sees {@code SocketException: Connection reset}. */
        public Builder connectionReset() {
            this.errorCode = null;
            this.httpStatus = 0;
            this.failureSet = true;
            return this;
        }

        /** Glue {@code AccessDeniedException} (400); STS {@code AccessDenied} (403). */
        public Builder accessDenied() {
            return isGlue() ? error("AccessDeniedException", 400) : error("AccessDenied", 403);
        }

        /**
         * Glue's refusal in the shape an emulator with IAM enforced answers it (moto): HTTP 403 with an XML body
         * ({@code <Code>AccessDenied</Code>}) where Glue speaks JSON. The SDK's JSON protocol reads no error code
         * from it, so the caller gets the service's base exception ({@code GlueException}) with status 403 and
         * no code; {@link Phase#AFTER_RESPONSE} lets the SDK unmarshal the real body.
         */
        public Builder accessDeniedAsXml() {
            error("AccessDenied", 403);
            this.xmlBody = true;
            return this;
        }

        /** Glue {@code ThrottlingException} (400); STS {@code Throttling} (400). Retryable. */
        public Builder throttling() {
            return isGlue() ? error("ThrottlingException", 400) : error("Throttling", 400);
        }

        /** Throttling as Glue answers an account over its quota: {@link #throttling()}, message "Rate exceeded". */
        public Builder rateExceeded() {
            return throttling().message("Rate exceeded");
        }

        /** Glue {@code InternalServiceException} (500); STS {@code InternalFailure} (500). Retryable. */
        public Builder internalError() {
            return isGlue() ? error("InternalServiceException", 500) : error("InternalFailure", 500);
        }

        /** Glue {@code EntityNotFoundException} (400). */
        public Builder entityNotFound() {
            return error(glueOnly("EntityNotFoundException"), 400);
        }

        /** Glue {@code AlreadyExistsException} (400). */
        public Builder alreadyExists() {
            return error(glueOnly("AlreadyExistsException"), 400);
        }

        /** Glue {@code ConcurrentModificationException} (400), what a stale {@code VersionId} gets. */
        public Builder concurrentModification() {
            return error(glueOnly("ConcurrentModificationException"), 400);
        }

        public Fault build() {
            if (!failureSet) {
                throw new IllegalStateException("say what fails: error(..), accessDenied(), connectionReset(), ...");
            }
            return new Fault(this);
        }

        private boolean isGlue() {
            return GlueCallRecorder.GLUE.equals(service);
        }

        private String glueOnly(String code) {
            if (!isGlue()) {
                throw new IllegalStateException(code + " is a Glue error");
            }
            return code;
        }
    }
}
