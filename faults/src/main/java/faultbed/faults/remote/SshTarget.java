package faultbed.faults.remote;

import java.nio.file.Path;

/**
 * One host as the inventory names it and how to reach it: its SSH address and port, the login,
 * the private key (OpenSSH or PEM; RSA, ECDSA or Ed25519, without a passphrase), the known-hosts
 * file its host key must be in, and how commands become root there.
 */
public record SshTarget(String name, String address, int port, String user, Path key, Path knownHosts,
    Become become) {
  /** "name (user@address:port)", for messages. */
  @Override
  public String toString() {
    return name + " (" + user + "@" + address + ":" + port + ")";
  }
}
