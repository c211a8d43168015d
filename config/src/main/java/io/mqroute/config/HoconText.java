package io.mqroute.config;

/**
 * Keeps error line numbers right in HOCON files with {@code """triple-quoted"""} strings
 * (experiment workloads).
 *
 * <p>Why: Typesafe Config up to 1.4.5 gave every list and object that follows a multi-line string a
 * line number that is short by the string's line count (leaf values keep theirs), so "variants: is
 * empty" would point into the workload; 1.4.9 numbers them right (HoconTextTest checks that both
 * agree), and the rewrite stays so that no line number depends on the library's version. This
 * rewrites each triple-quoted string as the equivalent ordinary quoted string on its first line and
 * adds the newlines it spanned at the end of the line where it closed: every token keeps its line,
 * and the value is the same. Comments and ordinary quoted strings are copied untouched, so quotes
 * inside them do not confuse it.
 */
public final class HoconText {
  private static final String TRIPLE = "\"\"\"";

  /**
   * The deepest nesting a HOCON text may have: open {@code {} and {@code [} outside strings and
   * comments, plus the levels a dotted key ({@code a.b.c = 1}) opens. Typesafe Config's parser and
   * its tree walks recurse once per level, so a few thousand levels in a 12 KB file overflow the
   * stack; no experiment, profile or node file comes near 64.
   */
  public static final int MAX_NESTING = 64;

  private HoconText() {}

  /**
   * Where {@code text} first nests deeper than {@link #MAX_NESTING}, or null. Read before parsing:
   * the parser itself would overflow the stack. The lexical rules are those of {@link
   * #singleLineStrings}: comments and quoted strings do not count, nor the braces of a {@code
   * ${substitution}}.
   *
   * @return the 1-based line and a message without location, or null if the nesting is fine
   */
  public static Problem nestingProblem(String text) {
    int depth = 0;
    int dots = 0; // dots in the current word: the levels a dotted key (a.b.c = 1) opens
    boolean afterSpace = false; // the next word starts a new count
    boolean substitution = false;
    int line = 1;
    int i = 0;
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i);
      if (c == '\n') {
        line++;
        dots = 0;
        i++;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        afterSpace = true;
        i++;
      } else if (c == '#' || text.startsWith("//", i)) {
        int end = text.indexOf('\n', i);
        i = end < 0 ? n : end;
      } else if (text.startsWith(TRIPLE, i)) {
        int close = text.indexOf(TRIPLE, i + 3);
        int end = close < 0 ? n : close + 3;
        while (end < n && text.charAt(end) == '"') {
          end++;
        }
        for (int k = i; k < end; k++) {
          if (text.charAt(k) == '\n') {
            line++;
          }
        }
        dots = 0;
        i = end;
      } else if (c == '$' && i + 1 < n && text.charAt(i + 1) == '{') {
        substitution = true; // ${a.b}: a path, not nesting
        i += 2;
      } else if (substitution) {
        substitution = c != '}';
        i++;
      } else if ("{}[],:=+".indexOf(c) >= 0) {
        boolean keyEnds = c == '=' || c == ':' || c == '{' || text.startsWith("+=", i);
        if (keyEnds && depth + dots > MAX_NESTING) {
          return new Problem(line, tooDeep(depth + dots));
        }
        if (c == '{' || c == '[') {
          if (++depth > MAX_NESTING) {
            return new Problem(line, tooDeep(depth));
          }
        } else if ((c == '}' || c == ']') && depth > 0) {
          depth--;
        }
        dots = 0;
        afterSpace = false;
        i++;
      } else {
        if (afterSpace) {
          dots = 0; // a new word: "a.b c" is not a key path, "a.b = 1" is
          afterSpace = false;
        }
        if (c == '"') { // a quoted key segment ("a"."b") or value: its dots do not count
          int j = i + 1;
          while (j < n && text.charAt(j) != '"' && text.charAt(j) != '\n') {
            j += text.charAt(j) == '\\' ? 2 : 1;
          }
          i = Math.min(n, j + 1);
        } else {
          if (c == '.') {
            dots++;
          }
          i++;
        }
      }
    }
    return null;
  }

  private static String tooDeep(int depth) {
    return "nested "
        + depth
        + " levels deep (objects, lists and dotted keys); at most "
        + MAX_NESTING
        + " are allowed";
  }

  /**
   * Why a text cannot be parsed, found before parsing.
   *
   * @param line 1-based
   */
  public record Problem(int line, String message) {}

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
