# ASan + UBSan (make test-asan). UBSan's vptr check is off: with hidden visibility every
# shared object (libtessera, each plugin, the test executables) holds its own typeinfo for
# inline templates such as std::_Sp_counted_base, so a shared_ptr made in one and released in
# another is reported as a type mismatch although the object is fine.
if(TESSERA_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize=vptr -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
