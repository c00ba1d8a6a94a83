// Package password hashes and verifies account passwords with argon2id
// (golang.org/x/crypto/argon2), stored as PHC strings:
//
//	$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>
//
// The parameters are OWASP's recommended minimum for argon2id; they are
// read back from each stored string, so raising them later keeps old
// hashes verifiable.
package password
