import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

export interface SelfSignedCertificate {
  /** PEM files in the folder given: the certificate is its own CA. */
  certFile: string;
  keyFile: string;
  cert: string;
  key: string;
}

/**
 * A lab server's certificate for 127.0.0.1, as one makes it with openssl: self-signed, valid a
 * day, written to `dir` (the test's own folder).
 */
export async function selfSignedCertificate(dir: string): Promise<SelfSignedCertificate> {
  const certFile = join(dir, "lab-ca.pem");
  const keyFile = join(dir, "lab-key.pem");
  await promisify(execFile)("openssl", [
    ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"],
    ...["-keyout", keyFile, "-out", certFile],
    ...["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
  ]);
  return {
    certFile,
    keyFile,
    cert: await readFile(certFile, "utf8"),
    key: await readFile(keyFile, "utf8"),
  };
}
