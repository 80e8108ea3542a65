package io.gluecat.testkit;

import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;

/**
 * A canonical JSON form of AWS SDK model objects (keys sorted, absent fields left out), so golden files
 * can compare whole Glue entries field by field and show a readable diff when they differ, and the demo
 * can print an entry.
 */
public final class SdkJson {
  private SdkJson() {}

  public static String toJson(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out, 0);
    return out.append('\n').toString();
  }

  private static void write(Object value, StringBuilder out, int indent) {
    if (value instanceof SdkPojo) {
      Map<String, Object> fields = new TreeMap<>();
      for (SdkField<?> field : ((SdkPojo) value).sdkFields()) {
        Object v = field.getValueOrDefault(value);
        if (v != null && !(v instanceof software.amazon.awssdk.core.util.SdkAutoConstructList)
            && !(v instanceof software.amazon.awssdk.core.util.SdkAutoConstructMap)) {
          fields.put(field.memberName(), v);
        }
      }
      writeMap(fields, out, indent);
    } else if (value instanceof Map) {
      writeMap(new TreeMap<>((Map<?, ?>) value), out, indent);
    } else if (value instanceof Collection) {
      Collection<?> items = (Collection<?>) value;
      if (items.isEmpty()) {
        out.append("[]");
        return;
      }
      out.append("[\n");
      int i = 0;
      for (Object item : items) {
        pad(out, indent + 2);
        write(item, out, indent + 2);
        out.append(++i < items.size() ? ",\n" : "\n");
      }
      pad(out, indent);
      out.append(']');
    } else if (value instanceof String || value instanceof Instant) {
      quote(value.toString(), out);
    } else {
      out.append(value);
    }
  }

  private static void writeMap(Map<?, ?> map, StringBuilder out, int indent) {
    if (map.isEmpty()) {
      out.append("{}");
      return;
    }
    out.append("{\n");
    int i = 0;
    for (Map.Entry<?, ?> e : map.entrySet()) {
      pad(out, indent + 2);
      quote(String.valueOf(e.getKey()), out);
      out.append(": ");
      write(e.getValue(), out, indent + 2);
      out.append(++i < map.size() ? ",\n" : "\n");
    }
    pad(out, indent);
    out.append('}');
  }

  private static void pad(StringBuilder out, int n) {
    out.append(" ".repeat(n));
  }

  /** A string as a JSON string literal, quotes included. */
  public static String quoted(String s) {
    StringBuilder out = new StringBuilder();
    quote(s, out);
    return out.toString();
  }

  private static void quote(String s, StringBuilder out) {
    out.append('"');
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\n': out.append("\\n"); break;
        case '\t': out.append("\\t"); break;
        default:
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
      }
    }
    out.append('"');
  }
}
