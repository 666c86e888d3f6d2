// libcrypto (OpenSSL) headers used by OfflineKit: SHA-256 through the EVP digest interface.
#ifndef OFFLINEKIT_CCRYPTO_SHIM_H
#define OFFLINEKIT_CCRYPTO_SHIM_H

#include <openssl/evp.h>
#include <openssl/sha.h>

#endif
