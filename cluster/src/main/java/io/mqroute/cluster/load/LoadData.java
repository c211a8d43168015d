package io.mqroute.cluster.load;

import io.mqroute.actors.machine.JobData;
import io.mqroute.protocol.Completion;
import io.mqroute.workload.Verify;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * fio's {@code verify=} for a job clone of {@code mqroute load}: every write carries a block with
 * fio-style header and checksum ({@link BlockVerifier}), every read of a block whose content is
 * known ({@link WrittenBlocks}) is checked, and the verify phase reads back each acknowledged block
 * in offset order. Owned by the clone's job actor.
 */
final class LoadData implements JobData {
  /** Mismatches kept in words per clone (the rest are counted). */
  static final int FIRST_ERRORS = 10;

  private record Pending(int block, boolean read, long generation, int writesAtStart) {}

  private final String job;
  private final long pid;
  private final Verify verify;
  private final BlockVerifier verifier;
  private final WrittenBlocks written;
  private final long regionOffset;
  private final int blockBytes;
  private final HashMap<Long, Pending> pending = new HashMap<>();
  private final List<String> first = new ArrayList<>();
  private int cursor;
  private long checked;
  private long errors;

  LoadData(
      String job,
      long pid,
      Verify verify,
      long fileId,
      long regionOffset,
      long regionBytes,
      int blockBytes) {
    this.job = job;
    this.pid = pid;
    this.verify = verify;
    this.verifier = new BlockVerifier(verify.kind(), fileId, pid, blockBytes);
    this.written = new WrittenBlocks(Math.max(1, regionBytes / blockBytes));
    this.regionOffset = regionOffset;
    this.blockBytes = blockBytes;
  }

  /** The block of {@code offset}, or -1 when it is not one whole block of the region. */
  private int blockOf(long offset, int bytes) {
    long rel = offset - regionOffset;
    if (bytes != blockBytes || rel < 0 || rel % blockBytes != 0) {
      return -1;
    }
    long b = rel / blockBytes;
    return b < written.blocks() ? (int) b : -1;
  }

  @Override
  public byte[] issued(long id, boolean read, long offset, int bytes) {
    int block = blockOf(offset, bytes);
    if (read) {
      if (block >= 0) {
        pending.put(
            id, new Pending(block, true, written.startRead(block), written.writesStarted(block)));
      }
      return null;
    }
    if (block < 0) {
      return verifier.block(offset, 0); // carried, never expected back: nothing tracks it
    }
    long generation = written.startWrite(block);
    pending.put(id, new Pending(block, false, generation, 0));
    return verifier.block(offset, generation);
  }

  @Override
  public void ended(long id, Completion c) {
    Pending p = pending.remove(id);
    if (p == null) {
      return;
    }
    if (!p.read()) {
      written.writeEnded(p.block(), p.generation(), c.status().isOk());
      return;
    }
    if (!c.status().isOk()
        || p.generation() <= 0
        || written.writesStarted(p.block()) != p.writesAtStart()) {
      return; // an error counts as one; unknown content, or a write overlapped it: not checked
    }
    checked++;
    long offset = regionOffset + (long) p.block() * blockBytes;
    String problem = verifier.check(c.data(), offset, p.generation());
    if (problem != null) {
      errors++;
      if (first.size() < FIRST_ERRORS) {
        first.add(job + " (pid " + pid + "): " + problem);
      }
    }
  }

  @Override
  public boolean hasMoreVerify() {
    return written.nextAcked(cursor) >= 0;
  }

  @Override
  public long nextVerifyOffset() {
    int b = written.nextAcked(cursor);
    cursor = b + 1;
    return regionOffset + (long) b * blockBytes;
  }

  @Override
  public boolean fatal() {
    return verify.fatal() && errors > 0;
  }

  LoadCloneProtocol.VerifyReport report() {
    return new LoadCloneProtocol.VerifyReport(checked, errors, List.copyOf(first));
  }
}
