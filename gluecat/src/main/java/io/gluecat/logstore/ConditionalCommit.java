package io.gluecat.logstore;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.FileAlreadyExistsException;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.fs.Path;

/**
 * One commit file written with S3's put-if-absent, and what its outcome means (pure logic over a {@link Store},
 * so that it is tested without S3):
 *
 * <ul>
 *   <li>the conditional PUT succeeds: the commit is made;</li>
 *   <li>409 {@code ConditionalRequestConflict} (another conditional write to the key is in flight): tried again,
 *       a few times, after a short random pause;</li>
 *   <li>any other failure, 412 {@code PreconditionFailed} included: the object is read back. Bytes equal to
 *       ours are our own commit, landed by an earlier attempt whose answer was lost (a retried PUT then meets
 *       412), so the write succeeded. Other bytes are another writer's commit of this version:
 *       {@link FileAlreadyExistsException}, on which Delta retries at the next version. No object: the
 *       failure is reported as it is, nothing was written.</li>
 * </ul>
 *
 * <p>Reading back needs only the read permission a Delta writer has anyway; it tells our commit from another's
 * because Delta's commit files differ between writers (commitInfo carries a timestamp and, in Delta 3 and 4,
 * a transaction id).
 */
final class ConditionalCommit {
  /** HTTP status of S3's refusal when the key exists. */
  static final int PRECONDITION_FAILED = 412;
  /** HTTP status of S3's refusal while another conditional write to the key is in flight. */
  static final int CONFLICT = 409;
  static final int ATTEMPTS_ON_CONFLICT = 5;

  /** Where the commit goes: the line's conditional PUT (compat modules) and a plain read. */
  interface Store {
    /** One PUT with {@code If-None-Match: *}; any refusal is thrown with S3's status in its cause chain. */
    void putIfAbsent(Path path, byte[] bytes) throws IOException;

    /** The object's bytes, or empty when there is none. */
    Optional<byte[]> read(Path path) throws IOException;
  }

  /** How long to pause before the next attempt after a 409; tests pass one that does not sleep. */
  interface Pause {
    void before(int attempt) throws IOException;

    Pause BACKOFF = attempt -> {
      try {
        Thread.sleep(50L * (1L << attempt) + ThreadLocalRandom.current().nextLong(50));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted before retrying the commit");
      }
    };
  }

  private ConditionalCommit() {}

  static void write(Store store, Path path, byte[] bytes, Pause pause) throws IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        store.putIfAbsent(path, bytes);
        return;
      } catch (IOException | RuntimeException e) {
        int status = status(e);
        if (status == CONFLICT && attempt < ATTEMPTS_ON_CONFLICT) {
          pause.before(attempt);
          continue;
        }
        Optional<byte[]> existing;
        try {
          existing = store.read(path);
        } catch (IOException | RuntimeException readFailure) {
          e.addSuppressed(readFailure);
          throw asIOException(e);
        }
        if (existing.isPresent()) {
          if (Arrays.equals(existing.get(), bytes)) {
            return; // our own commit, landed by an attempt whose answer was lost
          }
          FileAlreadyExistsException taken = new FileAlreadyExistsException(path.toString(), null,
              "another writer committed this version first (S3 answered " + (status > 0 ? status : e) + ")");
          taken.initCause(e);
          throw taken;
        }
        throw asIOException(e);
      }
    }
  }

  private static IOException asIOException(Exception e) {
    return e instanceof IOException ? (IOException) e : new IOException(e.getMessage(), e);
  }

  /**
   * The HTTP status in a failure's cause chain, read by name ({@code statusCode()} of the SDK v2 and S3A,
   * {@code getStatusCode()} of the SDK v1), so that no SDK type is named here: in the runtime jar gluecat's SDK
   * is relocated, while S3A's is not. 0 when none is found.
   */
  static int status(Throwable failure) {
    int depth = 0;
    for (Throwable t = failure; t != null && depth < 16; t = t.getCause(), depth++) {
      for (String name : new String[] {"statusCode", "getStatusCode"}) {
        try {
          Method m = t.getClass().getMethod(name);
          if (m.getReturnType() == int.class) {
            int status = (Integer) m.invoke(t);
            if (status > 0) {
              return status;
            }
          }
        } catch (ReflectiveOperationException | RuntimeException ignored) {
          // not this kind of exception
        }
      }
    }
    return 0;
  }
}
