package io.mqroute.config;

/**
 * Keeps error line numbers right in HOCON files with {@code """triple-quoted"""} strings
 * (experiment workloads).
 *
 * <p>Why: Typesafe Config 1.4.x gives every list and object that follows a multi-line string a line
 * number that is short by the string's line count (leaf values keep theirs), so "variants: is
 * empty" would point into the workload. This rewrites each triple-quoted string as the equivalent
 * ordinary quoted string on its first line and adds the newlines it spanned at the end of the line
 * where it closed: every token keeps its line, and the value is the same. Comments and ordinary
 * quoted strings are copied untouched, so quotes inside them do not confuse it.
 */
public final class HoconText {
  private static final String TRIPLE = "\"\"\"";

  private HoconText() {}

  /**
   * {@code text} with its triple-quoted strings on one line each; anything it cannot read is left
   * as it is.
   */
  public static String singleLineStrings(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    int pendingNewlines = 0;
    int i = 0;
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i);
      if (c == '\n') {
        out.append('\n');
        out.append("\n".repeat(pendingNewlines));
        pendingNewlines = 0;
        i++;
      } else if (c == '#' || text.startsWith("//", i)) {
        int end = text.indexOf('\n', i);
        end = end < 0 ? n : end;
        out.append(text, i, end);
        i = end;
      } else if (text.startsWith(TRIPLE, i)) {
        int close = text.indexOf(TRIPLE, i + 3);
        if (close < 0) {
          out.append(text, i, n); // unterminated: the parser reports it
          break;
        }
        while (close + 3 < n && text.charAt(close + 3) == '"') {
          close++; // HOCON: quotes just before the closing three belong to the string
        }
        String content = text.substring(i + 3, close);
        out.append(quoted(content));
        pendingNewlines += (int) content.chars().filter(ch -> ch == '\n').count();
        i = close + 3;
      } else if (c == '"') {
        int j = i + 1;
        while (j < n && text.charAt(j) != '"' && text.charAt(j) != '\n') {
          j += text.charAt(j) == '\\' ? 2 : 1;
        }
        j = Math.min(n, j + 1);
        out.append(text, i, j);
        i = j;
      } else {
        out.append(c);
        i++;
      }
    }
    out.append("\n".repeat(pendingNewlines));
    return out.toString();
  }

  /** A JSON (and HOCON) quoted string with the same value. */
  static String quoted(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int k = 0; k < s.length(); k++) {
      char ch = s.charAt(k);
      switch (ch) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (ch < 0x20) {
            b.append(String.format("\\u%04x", (int) ch));
          } else {
            b.append(ch);
          }
        }
      }
    }
    return b.append('"').toString();
  }
}
