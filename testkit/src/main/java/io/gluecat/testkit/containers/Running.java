package io.gluecat.testkit.containers;

import io.gluecat.testkit.ChildProcesses;
import java.time.Duration;

/** A fixture's server as it runs, a child process or a container: what the fixtures ask of either. */
public interface Running {
    boolean isAlive();

    /** How it ended, for messages ({@code "exited with status 3"}); only meaningful once {@link #isAlive()} is false. */
    String exitDescription();

    /** Stops it, waiting up to {@code timeout} per step; a no-op when it has stopped already. */
    void stop(Duration timeout);

    /** A watchdog process of {@link ChildProcesses}. */
    static Running process(Process process) {
        return new Running() {
            @Override
            public boolean isAlive() {
                return process.isAlive();
            }

            @Override
            public String exitDescription() {
                return "exited with status " + process.exitValue();
            }

            @Override
            public void stop(Duration timeout) {
                ChildProcesses.stop(process, timeout);
            }
        };
    }
}
