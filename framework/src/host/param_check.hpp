#pragma once
// Checking values against a plugin's parameter schema (tessera/plugin/param_spec.hpp). One
// implementation serves three users: the validation of scenario values (validate_params in
// plugin_registry.hpp), the loader's check that a descriptor's defaults satisfy their own
// ranges, and `tessera plugins`, which prints the same range and expectation texts.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/export.hpp"
#include "tessera/plugin/param_set.hpp"
#include "tessera/plugin/param_spec.hpp"

namespace tessera {

// What went wrong with one value.
enum class ParamProblem : std::uint8_t {
  none,
  syntax,        // not of the parameter's type ("abc" for an integer, "5" for a time)
  out_of_range,  // parsed, but outside [min, max]
  not_a_choice,  // not one of an enumeration's choices
};

struct ParamCheck {
  std::optional<ParamValue> value;  // set when problem == none
  ParamProblem problem = ParamProblem::none;
  std::string detail;  // the unit parser's message for a quantity's syntax error, or ""
};

// Parses `text` (a scalar as written; for real_list, comma-separated items unless `items`
// is given) as a value of `spec` and checks its range or choices.
TESSERA_API ParamCheck check_param_value(const ParamSpec& spec, std::string_view text,
                                         const std::vector<std::string>* items = nullptr);

// The value a parameter's declared default parses to (nullopt when required or invalid).
TESSERA_API std::optional<ParamValue> default_param_value(const ParamSpec& spec);

// "an integer ≥ 1", "a number in [0, 1]", "a time ≥ 0 s", "true or false", "one of a, b".
TESSERA_API std::string param_expectation(const ParamSpec& spec);
// "[0, 1]", "[1, ∞)", "(-∞, 5]", "" when unbounded. Quantities print with their unit.
TESSERA_API std::string param_range_text(const ParamSpec& spec);
// Whether a parameter has a finite min or max.
TESSERA_API bool param_has_range(const ParamSpec& spec);
// "fast, careful".
TESSERA_API std::string param_choices_text(const ParamSpec& spec);
// The SI unit of a quantity ("s", "B/s"), "" for every other type.
TESSERA_API const char* param_unit(const ParamSpec& spec);
// A number as the schema shows it: integers without a fraction, quantities with their unit.
TESSERA_API std::string format_param_number(const ParamSpec& spec, double v);

// Problems with a schema itself (duplicate names, a default outside its own range...), each
// a message without the owner prefix. Empty when the schema is sound.
TESSERA_API std::vector<std::string> check_param_schema(const ParamSpec* specs, std::uint32_t count);

}  // namespace tessera
