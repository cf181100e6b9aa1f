// `tessera schema`: the keys of the model, machine and scenario files from the field table — a
// listing for people, markdown key tables for the docs, a JSON Schema for editors. The façade entry
// studies/entries/schema_entry returns the rows and the JSON Schema document;
// report/schema_docs/schema_listing and report/schema_docs/schema_markdown render the rows.
#include <iostream>
#include <stdexcept>

#include "common_options.hpp"
#include "exit_codes.hpp"
#include "report/schema_docs/schema_listing.hpp"
#include "report/schema_docs/schema_markdown.hpp"
#include "studies/entries/schema_entry.hpp"
#include "tessera/error.hpp"

namespace tessera::cli {
namespace {

constexpr const char* kSchemaUsage =
    "Usage: tessera schema [model|machine|scenario] [--json-schema | --markdown [--doc FILE]]\n"
    "\n"
    "Lists every key a model, machine or scenario file takes (all three when no kind is given):\n"
    "its path, type and unit, range or choices, default or `required`, and what it means. Paths\n"
    "in a scenario (for --set, overrides:, sweep.hardware) put model. or machine. before a model\n"
    "or machine key; levels are addressed by name (machine.levels.node.link_bw).\n"
    "--json-schema prints a JSON Schema (draft-07) of one kind (default scenario) for editors:\n"
    "yaml-language-server completes and checks a file whose first line is\n"
    "  # yaml-language-server: $schema=../docs/schema/scenario.schema.json\n"
    "--markdown prints the key tables in markdown; with --doc FILE, FILE itself with every\n"
    "`<!-- BEGIN GENERATED: ... -->` section rewritten (what `make schema-docs` does).\n";

constexpr const char* kSchemaExamples =
    "\nExamples:\n"
    "  tessera schema machine\n"
    "  tessera schema scenario | grep sweep\n"
    "  tessera schema --json-schema model > model.schema.json\n"
    "  tessera schema --markdown --doc docs/scenario-format.md\n";

}  // namespace

int schema_command(const Args& args) {
  return run_guarded([&]() -> int {
    CommonOptions common;
    bool json_schema = false, markdown = false;
    std::string doc, kind;
    po::options_description desc("Options");
    desc.add_options()("json-schema", po::bool_switch(&json_schema),
                       "print a JSON Schema (draft-07) of one kind")("markdown", po::bool_switch(&markdown),
                                                                     "print the key tables in markdown")(
        "doc", po::value<std::string>(&doc)->value_name("FILE"),
        "with --markdown: print FILE with its generated sections rewritten");
    add_common_options(desc, common, kOptHelp | kOptLimits);
    po::options_description hidden;
    hidden.add_options()("kind", po::value<std::string>(&kind), "model, machine or scenario");
    po::options_description all;
    all.add(desc).add(hidden);
    po::positional_options_description positional;
    positional.add("kind", 1);
    parse_command_line(args, all, positional, common);
    if (common.help) {
      print_help(std::cout, kSchemaUsage, desc, kSchemaExamples);
      return kExitOk;
    }
    if (json_schema && markdown) throw InputError("--json-schema and --markdown exclude each other");
    studies::SchemaOptions options;
    options.kind = kind;
    options.form = json_schema ? studies::SchemaForm::json_schema
                   : markdown  ? studies::SchemaForm::markdown
                               : studies::SchemaForm::listing;
    options.doc = doc;
    const studies::SchemaResult result = studies::file_schema(options);

    if (json_schema) {
      std::cout << result.document.dump(2) << '\n';
    } else if (!doc.empty()) {
      try {
        std::cout << schema::regenerate_markdown(result.doc_text);
      } catch (const std::invalid_argument& e) {
        throw InputError(doc + ": " + e.what());
      }
    } else {
      for (std::size_t i = 0; i < result.kinds.size(); ++i) {
        const studies::SchemaKind& k = result.kinds[i];
        if (i) std::cout << '\n';
        if (markdown && result.kinds.size() > 1) std::cout << "#### " << k.name << "\n\n";
        std::cout << (markdown ? schema::markdown_key_table(k.name) : schema::schema_listing(k.file));
      }
    }
    return kExitOk;
  });
}

}  // namespace tessera::cli
