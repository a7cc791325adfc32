/**
 * A self-signed certificate for 127.0.0.1, for tests of TLS against a server on loopback: made by the
 * machine's openssl (Debian's, which every machine that runs the README's commands has), valid one day.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A PEM private key and its self-signed certificate, for `https.createServer({ key, cert })` and as a CA to trust. */
export interface SelfSignedCertificate {
  readonly key: string;
  readonly cert: string;
}

/** Makes a new RSA key and a certificate for `CN=127.0.0.1` with `subjectAltName=IP:127.0.0.1`; leaves no file behind. */
export async function selfSignedCertificate(): Promise<SelfSignedCertificate> {
  const directory = await mkdtemp(join(tmpdir(), "test-support-tls-"));
  try {
    const [keyFile, certFile] = [join(directory, "key.pem"), join(directory, "cert.pem")];
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-keyout",
        keyFile,
        "-out",
        certFile,
      ],
      { stdio: "ignore" },
    );
    return { key: await readFile(keyFile, "utf8"), cert: await readFile(certFile, "utf8") };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
