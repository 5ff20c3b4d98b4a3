"""The Python front of the native pool: task registry, specs, and the
gymnasium / gym / dm_env flavours of a pool."""
