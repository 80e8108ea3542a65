package io.gluecat.testkit;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The Python readers of the compatibility report (Daft's Glue catalog, awswrangler, boto3 for MiniStack's Athena
 * emulator) in one venv, {@code <repo>/.tools/pyreaders-<hash of the requirements>/}, installed by
 * {@link PipInstall} on first use under its lock, so one CI run installs it once and JVMs starting together wait
 * for one install. System property {@value #PYTHON_PROPERTY} names another interpreter that has them.
 */
public final class PythonReaders {

    static final String PYTHON_PROPERTY = "gluecat.pyreaders.python";

    /**
     * Pinned together: Daft with its Delta (deltalake, unitycatalog) and AWS extras, awswrangler, and the boto3
     * both accept (Daft 0.7.26's AWS extra holds boto3 below 1.44), and tenacity, which Daft's Glue catalog imports
     * for Delta tables without declaring it.
     */
    public static final List<String> REQUIREMENTS = List.of(
            "daft[aws,deltalake,unity]==0.7.26", "awswrangler==3.17.1", "boto3==1.43.127",
            "tenacity==9.2.1");

    private PythonReaders() {
    }

    /** The venv's python, installed when missing. */
    public static Path python() {
        String override = System.getProperty(PYTHON_PROPERTY, "").trim();
        if (!override.isEmpty()) {
            return Path.of(override);
        }
        return PipInstall.executable("pyreaders", hash(REQUIREMENTS), REQUIREMENTS, "python", PYTHON_PROPERTY);
    }

    static String hash(List<String> requirements) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(String.join("\n", requirements).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
