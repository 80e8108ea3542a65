package io.gluecat.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * Glue request bodies rewritten as Glue reads them, before they are signed and sent: names folded to lower case
 * ({@link GlueSemantics.Behaviour#LOWER_CASE_NAMES}) and an UpdateTable's input made a whole replacement
 * ({@link GlueSemantics.Behaviour#REPLACE_ON_UPDATE}). The SDK request, and so the kit's record of the call, stays
 * as the caller sent it.
 */
final class GlueRequests {

    /** Operations whose top-level {@code Name} is a database's or table's name. */
    private static final Set<String> NAMED = Set.of("GetDatabase", "DeleteDatabase", "UpdateDatabase", "GetTable",
            "DeleteTable");
    /**
     * The TableInput fields MiniStack 1.5.33 keeps when an UpdateTable leaves them out (its merge), with the value
     * that clears each: JSON null where Glue's entry then has no such field, empty where Glue answers empty.
     */
    private static final Map<String, String> CLEARED = new LinkedHashMap<>();

    static {
        for (String field : List.of("Description", "Owner", "StorageDescriptor", "TableType", "ViewOriginalText",
                "ViewExpandedText", "ViewDefinition", "IsMultiDialectView")) {
            CLEARED.put(field, null);
        }
        CLEARED.put("PartitionKeys", "[]");
        CLEARED.put("Parameters", "{}");
    }

    /** Marks a JSON value that is written as it stands ({@code null}, numbers, {@code []}, {@code {}}). */
    private record Raw(String json) { }

    private GlueRequests() {
    }

    /** The body to send instead of the SDK's, or null to send the SDK's. */
    static byte[] rewrite(Context.ModifyHttpRequest context, ExecutionAttributes attributes, boolean lower,
                          boolean replace) {
        String service = attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME);
        String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        if ((!lower && !replace) || !GlueCallRecorder.GLUE.equalsIgnoreCase(service) || operation == null
                || context.requestBody().isEmpty() || !AwsErrors.isJsonProtocol(context.httpRequest())) {
            return null;
        }
        boolean update = replace && "UpdateTable".equals(operation);
        if (!update && !lower) {
            return null;
        }
        byte[] body;
        try (InputStream in = context.requestBody().get().contentStreamProvider().newStream()) {
            body = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Object json = plain(JsonNode.parser().parse(body));
        if (!(json instanceof Map<?, ?>)) {
            return null;
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> request = (Map<String, Object>) json;
        if (lower) {
            foldNames(request, operation);
        }
        if (update && request.get("TableInput") instanceof Map<?, ?> input) {
            @SuppressWarnings("unchecked")
            Map<String, Object> fields = (Map<String, Object>) input;
            CLEARED.forEach((field, empty) -> fields.putIfAbsent(field, new Raw(empty == null ? "null" : empty)));
        }
        StringBuilder out = new StringBuilder();
        write(request, out);
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void foldNames(Map<String, Object> request, String operation) {
        lowerField(request, "DatabaseName");
        lowerField(request, "TableName");
        if (NAMED.contains(operation)) {
            lowerField(request, "Name");
        }
        if (request.get("TablesToDelete") instanceof List<?> names) {
            request.put("TablesToDelete", names.stream().map(n -> n instanceof String s ? lower(s) : n).toList());
        }
        if (request.get("DatabaseInput") instanceof Map<?, ?> database) {
            lowerField(database, "Name");
        }
        if (request.get("TableInput") instanceof Map<?, ?> table) {
            lowerField(table, "Name");
            lowerColumns(table.get("PartitionKeys"));
            if (table.get("StorageDescriptor") instanceof Map<?, ?> descriptor) {
                lowerColumns(descriptor.get("Columns"));
            }
        }
    }

    private static void lowerColumns(Object columns) {
        if (columns instanceof List<?> list) {
            list.forEach(c -> {
                if (c instanceof Map<?, ?> column) {
                    lowerField(column, "Name");
                }
            });
        }
    }

    @SuppressWarnings("unchecked")
    private static void lowerField(Map<?, ?> object, String field) {
        if (object.get(field) instanceof String s) {
            ((Map<String, Object>) object).put(field, lower(s));
        }
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    /** A JSON value as maps (in order), lists, strings, booleans and {@link Raw} numbers and nulls. */
    private static Object plain(JsonNode node) {
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            node.asObject().forEach((k, v) -> map.put(k, plain(v)));
            return map;
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>();
            node.asArray().forEach(v -> list.add(plain(v)));
            return list;
        }
        if (node.isString()) {
            return node.asString();
        }
        if (node.isBoolean()) {
            return node.asBoolean();
        }
        if (node.isNumber()) {
            return new Raw(node.asNumber());
        }
        return new Raw("null");
    }

    private static void write(Object value, StringBuilder out) {
        if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.append(first ? "" : ",").append(SdkJson.quoted(String.valueOf(e.getKey()))).append(':');
                write(e.getValue(), out);
                first = false;
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                out.append(i == 0 ? "" : ",");
                write(list.get(i), out);
            }
            out.append(']');
        } else if (value instanceof String s) {
            out.append(SdkJson.quoted(s));
        } else if (value instanceof Raw raw) {
            out.append(raw.json());
        } else {
            out.append(value);
        }
    }
}
