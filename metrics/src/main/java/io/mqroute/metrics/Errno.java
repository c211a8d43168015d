package io.mqroute.metrics;

/**
 * Linux {@code strerror} texts for the errno values the model produces, so that error lines read
 * like fio's ({@code first_error=22/<Invalid argument>}). Other values print as {@code errno N}.
 */
public final class Errno {

  private Errno() {}

  /** The glibc message for an errno (sign ignored). */
  public static String describe(int errno) {
    return switch (Math.abs(errno)) {
      case 0 -> "Success";
      case 1 -> "Operation not permitted";
      case 2 -> "No such file or directory";
      case 4 -> "Interrupted system call";
      case 5 -> "Input/output error";
      case 9 -> "Bad file descriptor";
      case 11 -> "Resource temporarily unavailable";
      case 12 -> "Cannot allocate memory";
      case 16 -> "Device or resource busy";
      case 17 -> "File exists";
      case 19 -> "No such device";
      case 22 -> "Invalid argument";
      case 28 -> "No space left on device";
      case 95 -> "Operation not supported";
      case 103 -> "Software caused connection abort";
      case 104 -> "Connection reset by peer";
      case 107 -> "Transport endpoint is not connected";
      case 110 -> "Connection timed out";
      case 125 -> "Operation canceled";
      default -> "errno " + Math.abs(errno);
    };
  }
}
