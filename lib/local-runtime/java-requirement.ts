import { spawnSync } from 'node:child_process';

/** DynamoDB Local is a Java program; without Java there is no local stack, and a spawn stack trace says so badly. */
export class JavaMissing extends Error {
  constructor() {
    super(
      'Java 17+ is required for DynamoDB Local and `java` was not found on PATH: install a JRE (Debian: apt-get install openjdk-17-jre-headless) or run .ci/run',
    );
    this.name = 'JavaMissing';
  }
}

export function requireJava(env: NodeJS.ProcessEnv = process.env): void {
  const probe = spawnSync('java', ['-version'], { env, stdio: 'ignore' });
  if (probe.error) throw new JavaMissing();
}
