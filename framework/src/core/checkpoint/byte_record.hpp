#pragma once
// The bytes of a checkpoint record (core/checkpoint/study_checkpoint.hpp): values appended as
// they lie in memory (a checkpoint is read back only by the build that wrote it: its header
// names the version, commit and plugin digests), text and lists with their length first.
// Reading past the end, or a length longer than what is left, throws InputError naming the
// record: never a read out of bounds.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tessera/error.hpp"

namespace tessera {

class ByteWriter {
 public:
  template <class T>
  void put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>, "only plain values are written as bytes");
    bytes_.append(reinterpret_cast<const char*>(&v), sizeof(T));
  }
  void put_text(std::string_view s) {
    put<std::uint64_t>(s.size());
    bytes_.append(s.data(), s.size());
  }
  template <class T>
  void put_list(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>, "only plain values are written as bytes");
    put<std::uint64_t>(v.size());
    if (!v.empty()) bytes_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  const std::string& bytes() const { return bytes_; }
  std::string take() { return std::move(bytes_); }
  void clear() { bytes_.clear(); }
  bool empty() const { return bytes_.empty(); }

 private:
  std::string bytes_;
};

class ByteReader {
 public:
  // `what` names the record in errors ("checkpoint x.ckpt, record 3").
  ByteReader(std::string_view bytes, std::string what) : bytes_(bytes), what_(std::move(what)) {}
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>, "only plain values are read as bytes");
    if constexpr (std::is_same_v<T, bool>) {
      const auto b = get<std::uint8_t>();
      if (b > 1) fail();
      return b == 1;
    }
    need(sizeof(T));
    T v;
    std::memcpy(&v, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return v;
  }
  std::string get_text() { return std::string(get_view()); }
  // The same, as a view into the bytes read (valid while they are).
  std::string_view get_view() {
    const std::uint64_t n = get<std::uint64_t>();
    need(n);
    const std::string_view s = bytes_.substr(at_, static_cast<std::size_t>(n));
    at_ += static_cast<std::size_t>(n);
    return s;
  }
  template <class T>
  std::vector<T> get_list() {
    const std::uint64_t n = get<std::uint64_t>();
    if (n > (bytes_.size() - at_) / sizeof(T)) fail();
    std::vector<T> v(static_cast<std::size_t>(n));
    if (n == 0) return v;  // no memcpy from or to a null pointer
    std::memcpy(v.data(), bytes_.data() + at_, v.size() * sizeof(T));
    at_ += v.size() * sizeof(T);
    return v;
  }
  bool done() const { return at_ == bytes_.size(); }
  // A value read back that no writer writes (a forged or foreign record): InputError.
  [[noreturn]] void fail() const {
    throw InputError(what_ + ": its contents are not what a record holds (written by another build?)");
  }
  // Checks that the byte holding `b` in a value read back is 0 or 1 (read as a byte, never as
  // a bool that could hold anything else).
  void check_bool(const bool& b) const {
    unsigned char byte = 0;
    std::memcpy(&byte, &b, 1);
    if (byte > 1) fail();
  }

 private:
  void need(std::uint64_t n) const {
    if (n > bytes_.size() - at_)
      throw InputError(what_ + ": its contents end before what it records (written by another build?)");
  }
  std::string_view bytes_;
  std::string what_;
  std::size_t at_ = 0;
};

}  // namespace tessera
