package io.gluecat.testkit;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import io.gluecat.testkit.containers.Backend;
import io.gluecat.testkit.containers.FixtureContainer;
import io.gluecat.testkit.containers.Running;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.iam.model.AccessKey;

/**
 * moto ({@code moto[server]} from PyPI) as a real process: a second, independent emulator of Glue, STS, IAM and
 * S3 on one loopback port, installed into {@code .tools/moto-<version>/} like MiniStack. Unlike MiniStack it can
 * enforce IAM: {@link #withIam()} creates an administrator, then makes every later request answer to the
 * policies of the caller's IAM user (moto checks actions; for Glue it authorizes against resource {@code *},
 * so a policy's Glue statements must name {@code *} as their resource to match there).
 *
 * <p>On the container backend ({@link Backend}: {@code -Dgluecat.fixtures}, the same rule as MiniStack's) moto runs
 * in a container of {@code gluecat-test/moto:<version>} (bin/build-test-images), published on the host's loopback;
 * the API is the same.
 *
 * <p>Known limits of moto 5.2.5 (measured): a denied Glue call is an HTTP 403 with an XML body; {@code UpdateTable}
 * replaces the input but accepts any {@code VersionId}; listings are not paged; {@code CatalogId} is ignored.
 */
public final class Moto implements AutoCloseable {
  static final String VERSION_PROPERTY = "gluecat.moto.version";
  static final String COMMAND_PROPERTY = "gluecat.moto.command";
  static final String IMAGE_PROPERTY = "gluecat.moto.image";
  /** The port moto listens on in its container (motoserver/moto's). */
  static final int CONTAINER_PORT = 5000;
  static final String DEFAULT_VERSION = "5.2.5";
  /** moto's default account. */
  public static final String ACCOUNT = "123456789012";
  public static final String REGION = "us-east-1";

  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

  private final Running process;
  private final URI endpoint;
  private final Path logFile;
  private volatile AwsBasicCredentials admin = AwsBasicCredentials.create("testing", "testing");

  private Moto(Running process, int port, Path logFile) {
    this.process = process;
    this.endpoint = URI.create("http://127.0.0.1:" + port);
    this.logFile = logFile;
  }

  /** The images of the container backend: the local build (bin/build-test-images), else motoserver/moto. */
  public static Backend.Images containerImages() {
    String version = version();
    return new Backend.Images("moto " + version, IMAGE_PROPERTY, "gluecat-test/moto:" + version,
        "motoserver/moto:" + version);
  }

  /** Whether this moto runs in a container. */
  public boolean inContainer() {
    return process instanceof FixtureContainer;
  }

  /** A moto server that checks no IAM (any credentials are accepted). Close it when done. */
  public static Moto start() {
    Optional<Backend.Choice> container = Backend.choose(containerImages());
    if (container.isPresent()) {
      return startContainer(container.get());
    }
    Path executable = executable();
    IllegalStateException last = null;
    for (int tries = 0; tries < 3; tries++) {   // a free port can be taken before moto binds it
      int port = ChildProcesses.freePort();
      Path logDir = Paths.get(System.getProperty("user.dir"), "target");
      Path logFile = logDir.resolve("moto-" + port + ".log");
      Moto moto;
      try {
        Files.createDirectories(logDir);
        Path scratch = Files.createTempDirectory("gluecat-moto-" + port + "-");
        Process p = ChildProcesses.startWatched(List.of(executable.toString(), "-H", "127.0.0.1", "-p",
            String.valueOf(port)), scratch, logFile, env -> {
              env.keySet().removeIf(k -> k.startsWith("AWS_") || k.startsWith("MOTO_")
                  || Set.of("INITIAL_NO_AUTH_ACTION_COUNT", "TEST_SERVER_MODE").contains(k));
              env.put("TMPDIR", scratch.toString());
            });
        moto = new Moto(Running.process(p), port, logFile);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start moto " + executable, e);
      }
      try {
        moto.awaitReady();
        return moto;
      } catch (IllegalStateException e) {
        moto.close();
        last = e;
      }
    }
    throw last;
  }

  /**
   * A moto server that enforces IAM: an administrator user (all actions) is created first and {@link #admin()}
   * holds its keys; from then on every request must be signed by an IAM user of this moto whose policies
   * allow the action.
   */
  public static Moto withIam() {
    Moto moto = start();
    try {
      moto.admin = moto.principal("gluecat-admin",
          "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\"}]}");
      HttpResponse<String> r = ChildProcesses.http(HttpRequest.newBuilder(moto.endpoint.resolve("/moto-api/reset-auth"))
          .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString("0")));
      if (r.statusCode() != 200) {
        throw new IllegalStateException("moto refused to enforce IAM: HTTP " + r.statusCode() + " " + r.body());
      }
      return moto;
    } catch (RuntimeException e) {
      moto.close();
      throw e;
    }
  }

  /**
   * A new IAM user with exactly {@code policyJson} as its inline policy, and its access key. Made with the
   * administrator's keys, so it works before and after IAM is enforced.
   */
  public AwsBasicCredentials principal(String userName, String policyJson) {
    try (IamClient iam = iam()) {
      iam.createUser(r -> r.userName(userName));
      iam.putUserPolicy(r -> r.userName(userName).policyName(userName + "-policy").policyDocument(policyJson));
      AccessKey key = iam.createAccessKey(r -> r.userName(userName)).accessKey();
      return AwsBasicCredentials.create(key.accessKeyId(), key.secretAccessKey());
    }
  }

  /**
   * A new IAM role with exactly {@code policyJson} as its inline policy, which only the IAM user
   * {@code trustedUser} of this moto may assume; returns its ARN.
   */
  public String role(String roleName, String trustedUser, String policyJson) {
    String trust = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":"
        + "\"arn:aws:iam::" + ACCOUNT + ":user/" + trustedUser + "\"},\"Action\":\"sts:AssumeRole\"}]}";
    try (IamClient iam = iam()) {
      String arn = iam.createRole(r -> r.roleName(roleName).assumeRolePolicyDocument(trust)).role().arn();
      iam.putRolePolicy(r -> r.roleName(roleName).policyName(roleName + "-policy").policyDocument(policyJson));
      return arn;
    }
  }

  private IamClient iam() {
    return IamClient.builder().endpointOverride(endpoint).region(Region.AWS_GLOBAL)
        .credentialsProvider(StaticCredentialsProvider.create(admin)).build();
  }

  public URI endpoint() {
    return endpoint;
  }

  /** The administrator's keys once {@link #withIam()} made it; before that, any keys. */
  public AwsBasicCredentials admin() {
    return admin;
  }

  public Path logFile() {
    return logFile;
  }

  @Override
  public void close() {
    process.stop(STOP_TIMEOUT);
  }

  private void awaitReady() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("moto " + process.exitDescription() + " before it answered; last lines of "
            + logFile + ":\n" + ChildProcesses.logTail(logFile, 30));
      }
      try {
        if (ChildProcesses.http(HttpRequest.newBuilder(endpoint.resolve("/moto-api/")).GET()).statusCode() == 200) {
          return;
        }
      } catch (UncheckedIOException notYet) {
        // not listening yet
      }
      ChildProcesses.sleep(100);
    }
    throw new IllegalStateException("moto at " + endpoint + " did not answer within 60 s; last lines of " + logFile
        + ":\n" + ChildProcesses.logTail(logFile, 30));
  }

  /**
   * A container of the image: moto listens on {@value #CONTAINER_PORT} inside, published on a free port of the
   * host's loopback only. Its output goes to {@code target/moto-<host port>.log}, as a process's does.
   */
  private static Moto startContainer(Backend.Choice choice) {
    Path logDir = Paths.get(System.getProperty("user.dir"), "target");
    Path startLog = logDir.resolve("moto-container-" + Long.toHexString(System.nanoTime()) + ".log");
    FixtureContainer container = FixtureContainer.start(choice, startLog, c -> c
        .withExposedPorts(CONTAINER_PORT)
        .withCommand("moto_server", "-H", "0.0.0.0", "-p", String.valueOf(CONTAINER_PORT))
        .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withPortBindings(new PortBinding(
            Ports.Binding.bindIp("127.0.0.1"), ExposedPort.tcp(CONTAINER_PORT)))));
    int port = container.mappedPort(CONTAINER_PORT);
    Path logFile = logDir.resolve("moto-" + port + ".log");
    try {
      Files.move(startLog, logFile, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      logFile = startLog;   // keep writing where it is
    }
    Moto moto = new Moto(container, port, logFile);
    try {
      moto.awaitReady();
      return moto;
    } catch (IllegalStateException e) {
      moto.close();
      throw e;
    }
  }

  private static String version() {
    return System.getProperty(VERSION_PROPERTY, "").isBlank() ? DEFAULT_VERSION
        : System.getProperty(VERSION_PROPERTY).trim();
  }

  private static Path executable() {
    String command = System.getProperty(COMMAND_PROPERTY, "").trim();
    if (!command.isEmpty()) {
      return Paths.get(command);
    }
    String version = version();
    return PipInstall.executable("moto", version, "moto[server]==" + version, "moto_server", COMMAND_PROPERTY);
  }
}
