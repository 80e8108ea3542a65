package io.gluecat.logstore;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** ConditionalCommit and ConditionalProbe over a store that behaves as S3 does, with faults injected. */
class ConditionalCommitTest {
  private static final Path COMMIT = new Path("s3a://b/t/_delta_log/00000000000000000001.json");
  private static final ConditionalCommit.Pause NO_PAUSE = attempt -> { };

  /** An SDK-like failure: S3's status through statusCode() (SDK v2, S3A) or getStatusCode() (SDK v1). */
  static final class V2Failure extends RuntimeException {
    private final int status;

    V2Failure(int status) {
      super("S3 answered " + status);
      this.status = status;
    }

    public int statusCode() {
      return status;
    }
  }

  static final class V1Failure extends RuntimeException {
    private final int status;

    V1Failure(int status) {
      super("S3 answered " + status);
      this.status = status;
    }

    public int getStatusCode() {
      return status;
    }
  }

  /** S3 with If-None-Match honoured (or not), and a script of faults for the next PUTs. */
  static final class FakeS3 implements ConditionalCommit.Store {
    final Map<Path, byte[]> objects = new ConcurrentHashMap<>();
    final List<String> faults = new ArrayList<>();
    boolean honoursCondition = true;
    int puts;

    @Override
    public synchronized void putIfAbsent(Path path, byte[] bytes) throws IOException {
      puts++;
      String fault = faults.isEmpty() ? "" : faults.remove(0);
      switch (fault) {
        case "409":
          throw new IOException("conditional request conflict", new V2Failure(409));
        case "503":
          throw new IOException("slow down", new V1Failure(503));
        case "reset-before":
          throw new IOException("connection reset");
        default:
          break;
      }
      if (honoursCondition && objects.containsKey(path)) {
        throw new IOException("precondition failed", new V2Failure(412));
      }
      objects.put(path, bytes.clone());
      if (fault.equals("reset-after")) {
        throw new IOException("connection reset after S3 applied the PUT");
      }
    }

    @Override
    public Optional<byte[]> read(Path path) {
      return Optional.ofNullable(objects.get(path)).map(byte[]::clone);
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void theFirstWriteCreates() throws IOException {
    FakeS3 s3 = new FakeS3();
    ConditionalCommit.write(s3, COMMIT, utf8("a\n"), NO_PAUSE);
    assertArrayEquals(utf8("a\n"), s3.objects.get(COMMIT));
  }

  @Test
  void anotherWritersCommitOfTheVersionIsAConflictAndStaysIntact() throws IOException {
    FakeS3 s3 = new FakeS3();
    ConditionalCommit.write(s3, COMMIT, utf8("first\n"), NO_PAUSE);
    FileAlreadyExistsException e = assertThrows(FileAlreadyExistsException.class,
        () -> ConditionalCommit.write(s3, COMMIT, utf8("second\n"), NO_PAUSE));
    assertTrue(e.getMessage().contains("412"), e.getMessage());
    assertArrayEquals(utf8("first\n"), s3.objects.get(COMMIT));
  }

  @Test
  void a412OnOurOwnBytesIsOurCommitLandedByAnEarlierAttempt() throws IOException {
    FakeS3 s3 = new FakeS3();
    s3.objects.put(COMMIT, utf8("ours\n")); // the first attempt landed, its answer was lost, the retry meets 412
    ConditionalCommit.write(s3, COMMIT, utf8("ours\n"), NO_PAUSE);
    assertArrayEquals(utf8("ours\n"), s3.objects.get(COMMIT));
  }

  @Test
  void aPutThatFailsAfterS3AppliedItIsSuccess() throws IOException {
    FakeS3 s3 = new FakeS3();
    s3.faults.add("reset-after");
    ConditionalCommit.write(s3, COMMIT, utf8("ours\n"), NO_PAUSE);
    assertArrayEquals(utf8("ours\n"), s3.objects.get(COMMIT));
    assertEquals(1, s3.puts);
  }

  @Test
  void aFailureBeforeS3AppliedItIsReportedAndNothingIsWritten() {
    FakeS3 s3 = new FakeS3();
    s3.faults.add("reset-before");
    IOException e = assertThrows(IOException.class, () -> ConditionalCommit.write(s3, COMMIT, utf8("x\n"), NO_PAUSE));
    assertFalse(e instanceof FileAlreadyExistsException);
    assertTrue(s3.objects.isEmpty());
  }

  @Test
  void aThrottledPutThatOutlastsTheSdkRetriesIsReportedNotTakenForAConflict() {
    FakeS3 s3 = new FakeS3();
    s3.faults.add("503");
    IOException e = assertThrows(IOException.class, () -> ConditionalCommit.write(s3, COMMIT, utf8("x\n"), NO_PAUSE));
    assertFalse(e instanceof FileAlreadyExistsException);
    assertEquals(503, ConditionalCommit.status(e));
    assertTrue(s3.objects.isEmpty());
  }

  @Test
  void a409IsTriedAgainUntilThePutLands() throws IOException {
    FakeS3 s3 = new FakeS3();
    s3.faults.addAll(List.of("409", "409"));
    List<Integer> pauses = new ArrayList<>();
    ConditionalCommit.write(s3, COMMIT, utf8("ours\n"), pauses::add);
    assertEquals(List.of(1, 2), pauses);
    assertEquals(3, s3.puts);
    assertArrayEquals(utf8("ours\n"), s3.objects.get(COMMIT));
  }

  @Test
  void a409AfterWhichTheOtherWriterLandedIsAConflict() {
    FakeS3 s3 = new FakeS3();
    s3.faults.add("409");
    s3.objects.put(COMMIT, utf8("theirs\n")); // the conditional write in flight was theirs
    assertThrows(FileAlreadyExistsException.class, () -> ConditionalCommit.write(s3, COMMIT, utf8("ours\n"), NO_PAUSE));
    assertArrayEquals(utf8("theirs\n"), s3.objects.get(COMMIT));
  }

  @Test
  void a409ThatNeverClearsIsReportedAfterTheLastAttempt() {
    FakeS3 s3 = new FakeS3();
    for (int i = 0; i < ConditionalCommit.ATTEMPTS_ON_CONFLICT; i++) {
      s3.faults.add("409");
    }
    IOException e = assertThrows(IOException.class, () -> ConditionalCommit.write(s3, COMMIT, utf8("x\n"), NO_PAUSE));
    assertFalse(e instanceof FileAlreadyExistsException);
    assertEquals(409, ConditionalCommit.status(e));
    assertEquals(ConditionalCommit.ATTEMPTS_ON_CONFLICT, s3.puts);
    assertTrue(s3.objects.isEmpty());
  }

  @Test
  void theStatusIsReadThroughCausesFromEitherSdk() {
    assertEquals(412, ConditionalCommit.status(new IOException("x", new RuntimeException(new V2Failure(412)))));
    assertEquals(409, ConditionalCommit.status(new IOException(new V1Failure(409))));
    assertEquals(0, ConditionalCommit.status(new IOException("no status")));
  }

  @Test
  void anEndpointThatHonoursTheConditionPassesTheProbeAndTheProbeIsDeleted() throws IOException {
    FakeS3 s3 = new FakeS3();
    List<Path> deleted = new ArrayList<>();
    Path probe = new Path("s3a://b/t/_delta_log/" + ConditionalProbe.PROBE_PREFIX + "1");
    assertEquals(Optional.empty(), ConditionalProbe.probe("s3a://b", probe, s3, deleted::add));
    assertEquals(List.of(probe), deleted);
  }

  @Test
  void anEndpointThatIgnoresTheConditionIsRefusedForEveryCommitToTheBucket() throws IOException {
    ConditionalProbe.reset();
    FakeS3 s3 = new FakeS3();
    s3.honoursCondition = false;
    List<Path> deleted = new ArrayList<>();
    Path logDir = new Path("s3a://ignores/t/_delta_log");
    IOException e = assertThrows(IOException.class,
        () -> ConditionalProbe.check("s3a://ignores", logDir, s3, deleted::add));
    assertTrue(e.getMessage().contains("ignored If-None-Match"), e.getMessage());
    assertTrue(e.getMessage().contains(ConditionalLogStore.PROBE), e.getMessage());
    assertEquals(1, deleted.size());
    int puts = s3.puts;
    assertThrows(IOException.class, () -> ConditionalProbe.check("s3a://ignores", logDir, s3, deleted::add));
    assertEquals(puts, s3.puts, "the bucket is probed once per JVM");
    ConditionalProbe.reset();
  }

  @Test
  void commitBytesAreDeltasLinesEachEndedByANewline() {
    assertArrayEquals(utf8("{\"a\":1}\n{\"b\":2}\n"),
        ConditionalLogStore.bytes(List.of("{\"a\":1}", "{\"b\":2}").iterator()));
  }
}
