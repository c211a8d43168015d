package io.mqroute.policies.random;

import java.nio.charset.StandardCharsets;

/** 64-bit FNV-1a over the UTF-8 bytes of a string: the stream-name hash of {@link SeededRandom}. */
public final class Fnv1a {

  /** FNV-1a 64-bit offset basis. */
  public static final long OFFSET_BASIS = 0xcbf29ce484222325L;

  /** FNV 64-bit prime. */
  public static final long PRIME = 0x100000001b3L;

  private Fnv1a() {}

  /** FNV-1a 64 of {@code s} encoded as UTF-8. */
  public static long hash64(String s) {
    long h = OFFSET_BASIS;
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= PRIME;
    }
    return h;
  }
}
