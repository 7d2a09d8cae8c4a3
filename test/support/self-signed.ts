// A self-signed certificate made with the machine's openssl, for tests that serve or trust TLS on
// loopback: an https model endpoint (test/unit/llm/chat-http.test.ts), the CAs of the second dockerd
// (second-dockerd.ts).
import { execFileSync } from 'node:child_process';

export interface SelfSigned {
  /** Where the private key (PEM, unencrypted) and the certificate (PEM) are written. */
  key: string;
  cert: string;
  /** Its subject and issuer, as openssl writes it: `/CN=localhost`. */
  subject: string;
  days: number;
  /** An extension added (`subjectAltName=DNS:localhost`): clients check a server's name against it. */
  ext?: string;
}

/** Writes a fresh RSA key and its self-signed certificate; openssl's error, with its stderr, when it fails. */
export function selfSigned({ key, cert, subject, days, ext }: SelfSigned): void {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      String(days),
      '-subj',
      subject,
      ...(ext ? ['-addext', ext] : []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
}
