package io.mqroute.policies;

import java.util.Collection;

/**
 * Builds "unknown X; did you mean Y?" messages with the nearest valid name by Levenshtein distance,
 * so that a typo in an experiment file names its own fix.
 */
public final class NameSuggester {

  private NameSuggester() {}

  /**
   * The candidate closest to {@code input}, or {@code null} if none is plausibly a typo of it
   * (distance above {@code max(3, input.length() / 2)}). Ties go to the earlier candidate.
   */
  public static String nearest(String input, Collection<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      int d = levenshtein(input, c);
      if (d < bestDistance) {
        best = c;
        bestDistance = d;
      }
    }
    return bestDistance <= Math.max(3, input.length() / 2) ? best : null;
  }

  /**
   * {@code unknown <kind> "<input>"; did you mean "<nearest>"? (valid: a, b, c)}; the did-you-mean
   * part is left out when no candidate is close.
   */
  public static String unknown(String kind, String input, Collection<String> valid) {
    StringBuilder sb =
        new StringBuilder("unknown ").append(kind).append(" \"").append(input).append('"');
    String near = nearest(input, valid);
    if (near != null) {
      sb.append("; did you mean \"").append(near).append("\"?");
    }
    return sb.append(" (valid: ").append(String.join(", ", valid)).append(')').toString();
  }

  /** Edit distance with unit insert, delete and substitute costs. */
  public static int levenshtein(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int subst = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(subst, Math.min(prev[j] + 1, cur[j - 1] + 1));
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
