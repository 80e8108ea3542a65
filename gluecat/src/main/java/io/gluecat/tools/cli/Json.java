package io.gluecat.tools.cli;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** The tools' JSON output: maps (in their order), lists, strings, numbers, booleans and null. */
public final class Json {
  private Json() {}

  public static String write(Object value) {
    StringBuilder b = new StringBuilder();
    write(b, value, "");
    return b.toString();
  }

  private static void write(StringBuilder b, Object value, String indent) {
    if (value == null) {
      b.append("null");
    } else if (value instanceof String) {
      quote(b, (String) value);
    } else if (value instanceof Number || value instanceof Boolean) {
      b.append(value);
    } else if (value instanceof Map) {
      Map<?, ?> map = (Map<?, ?>) value;
      if (map.isEmpty()) {
        b.append("{}");
        return;
      }
      String inner = indent + "  ";
      b.append("{\n");
      Iterator<? extends Map.Entry<?, ?>> it = map.entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<?, ?> e = it.next();
        b.append(inner);
        quote(b, String.valueOf(e.getKey()));
        b.append(": ");
        write(b, e.getValue(), inner);
        b.append(it.hasNext() ? ",\n" : "\n");
      }
      b.append(indent).append('}');
    } else if (value instanceof List) {
      List<?> list = (List<?>) value;
      if (list.isEmpty()) {
        b.append("[]");
        return;
      }
      String inner = indent + "  ";
      b.append("[\n");
      for (int i = 0; i < list.size(); i++) {
        b.append(inner);
        write(b, list.get(i), inner);
        b.append(i + 1 < list.size() ? ",\n" : "\n");
      }
      b.append(indent).append(']');
    } else {
      quote(b, value.toString());
    }
  }

  private static void quote(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"': b.append("\\\""); break;
        case '\\': b.append("\\\\"); break;
        case '\n': b.append("\\n"); break;
        case '\r': b.append("\\r"); break;
        case '\t': b.append("\\t"); break;
        default:
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
      }
    }
    b.append('"');
  }
}
