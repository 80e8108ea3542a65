package io.gluecat.testkit;

import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * Errors in the shapes AWS gives them, for the parts of the interceptor that answer instead of the server:
 * {@link GlueFaults} (injected faults) and {@link GlueSemantics} (a request Glue would refuse).
 */
final class AwsErrors {

    private static final Pattern JSON_ERROR_TYPE = Pattern.compile("\"__type\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern XML_ERROR_CODE = Pattern.compile("<Code>([^<]+)</Code>");

    private AwsErrors() {
    }

    /** The modelled exception the SDK would unmarshal for this error code, built by reflection. */
    static AwsServiceException serviceException(Fault fault, Attempt attempt, SdkRequest request) {
        String message = fault.message(attempt.operation);
        String requestId = requestId(attempt);
        SdkHttpResponse http = SdkHttpResponse.builder()
                .statusCode(fault.httpStatus())
                .putHeader("x-amzn-RequestId", requestId)
                .build();
        if (fault.xmlBody()) {
            // as the SDK's JSON protocol unmarshals an XML body: the base exception, no code, no message of AWS's
            return exceptionBuilder(null, attempt.service, request.getClass())
                    .message("Service returned HTTP status code 403")
                    .statusCode(fault.httpStatus())
                    .requestId(requestId)
                    .awsErrorDetails(AwsErrorDetails.builder()
                            .serviceName(attempt.service)
                            .sdkHttpResponse(http)
                            .build())
                    .build();
        }
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
        List<String> candidates = fault == null ? List.of(model + "." + service + "Exception")
                : fault.exceptionClass() != null
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
    static SdkClientException connectionReset() {
        return SdkClientException.builder()
                .message("Unable to execute HTTP request: Connection reset")
                .cause(new SocketException("Connection reset"))
                .build();
    }

    /** An AWS error body: awsJson for Glue, awsQuery XML for STS. */
    static byte[] errorBody(Fault fault, Attempt attempt, boolean json) {
        String message = fault.message(attempt.operation);
        String body = json && !fault.xmlBody()
                ? "{\"__type\":\"" + jsonEscape(fault.errorCode()) + "\",\"Message\":\"" + jsonEscape(message) + "\"}"
                : "<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><Error><Type>"
                  + (fault.httpStatus() >= 500 ? "Receiver" : "Sender") + "</Type><Code>" + xmlEscape(fault.errorCode())
                  + "</Code><Message>" + xmlEscape(message) + "</Message></Error><RequestId>" + requestId(attempt)
                  + "</RequestId></ErrorResponse>";
        return body.getBytes(StandardCharsets.UTF_8);
    }

    static String requestId(Attempt attempt) {
        return "gluecat-fault-" + attempt.sequence;
    }

    static boolean isJsonProtocol(SdkHttpRequest request) {
        return request.firstMatchingHeader("Content-Type").map(t -> t.startsWith("application/x-amz-json")).orElse(false);
    }

    /** The error code of an AWS error body (JSON {@code __type} or XML {@code <Code>}), or null. */
    static String errorCode(String body) {
        Matcher json = JSON_ERROR_TYPE.matcher(body);
        if (json.find()) {
            String type = json.group(1);
            return type.substring(type.lastIndexOf('#') + 1);
        }
        Matcher xml = XML_ERROR_CODE.matcher(body);
        return xml.find() ? xml.group(1) : null;
    }

    private static String jsonEscape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static String xmlEscape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
