#ifndef APPSHELL_CCRYPTO_SHIM_H
#define APPSHELL_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/sha.h>
#endif
