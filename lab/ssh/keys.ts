/**
 * ed25519 key pairs in OpenSSH format for the lab's SSH faces and their tests. ssh2's
 * generateKeyPairSync("ed25519") drops a leading zero byte of the public key, so about
 * one pair in 250 is malformed (neither half parses); such a pair is made again.
 */
import { utils } from "ssh2";

const MAX_TRIES = 20;

export function generateEd25519(): { private: string; public: string } {
  for (let i = 0; i < MAX_TRIES; i++) {
    const pair = utils.generateKeyPairSync("ed25519");
    const pub = utils.parseKey(pair.public);
    const priv = utils.parseKey(pair.private);
    if (pub instanceof Error || priv instanceof Error) continue;
    if (pub.getPublicSSH().equals(priv.getPublicSSH())) return pair;
  }
  throw new Error(`no well-formed ed25519 key pair in ${MAX_TRIES} tries`);
}
