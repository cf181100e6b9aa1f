// Measurements CSV -> DataRow, with the header, shape, cell and id checks of measurement_csv.hpp.
#include "analysis/measurements/measurement_csv.hpp"

#include <array>
#include <unordered_map>

#include "analysis/measurements/measurement_cells.hpp"
#include "core/text/csv.hpp"
#include "core/text/input_file.hpp"
#include "core/text/safe_text.hpp"
#include "tessera/error.hpp"

namespace tessera::accuracy {

namespace {

enum Col : std::size_t {
  kId,
  kSource,
  kSourceLocator,
  kSoftware,
  kModel,
  kPrecision,
  kHardware,
  kNDevices,
  kTp,
  kPp,
  kEp,
  kBatch,
  kInputLen,
  kOutputLen,
  kMetric,
  kValue,
  kUnit,
  kNotes,
  kColumnCount
};

constexpr std::array<const char*, kColumnCount> kColumns = {
    "id",        "source",   "source_locator", "software",   "model",
    "precision", "hardware", "n_devices",      "tp",         "pp",
    "ep",        "batch",    "input_len",      "output_len", "metric",
    "value",     "unit",     "notes"};

constexpr std::array<Col, 7> kCounts = {kNDevices, kTp, kPp, kEp, kBatch, kInputLen, kOutputLen};

std::string shown(const std::string& s) { return excerpt(s, 40); }

class Reader {
 public:
  explicit Reader(const std::string& file) : file_(file) {}

  void operator()(const CsvRecord& rec) {
    if (!have_header_)
      header(rec);
    else
      row(rec);
  }

  std::vector<DataRow> finish() {
    if (!have_header_)
      diags_.push_back({SourceLocation{file_, 1, 1}, "empty file (expected the header of measurements.csv)"});
    if (!diags_.empty()) throw InputErrors(std::move(diags_));
    return std::move(rows_);
  }

 private:
  void error(const SourceLocation& where, std::string message) {
    diags_.push_back({where, std::move(message)});
    if (diags_.size() >= kMaxDiags) throw InputErrors(std::move(diags_));
  }

  void header(const CsvRecord& rec) {
    have_header_ = true;
    width_ = rec.size();
    index_.fill(SIZE_MAX);
    std::vector<std::string> names;
    for (std::size_t i = 0; i < rec.size(); ++i) {
      const std::string name = trim(rec.cells[i].text);
      for (std::size_t j = 0; j < names.size(); ++j)
        if (names[j] == name) {
          error(SourceLocation{file_, rec.cells[i].line, rec.cells[i].column},
                "duplicate column '" + shown(name) + "' (also column " + std::to_string(j + 1) +
                    "); each column of measurements.csv appears once");
          break;
        }
      names.push_back(name);
      for (std::size_t c = 0; c < kColumnCount; ++c)
        if (name == kColumns[c] && index_[c] == SIZE_MAX) index_[c] = i;
    }
    for (std::size_t c = 0; c < kColumnCount; ++c)
      if (index_[c] == SIZE_MAX)
        error(SourceLocation{file_, rec.line, 1},
              "missing column '" + std::string(kColumns[c]) +
                  "' (expected the columns of measurements.csv: id,source,...,notes)");
    if (!diags_.empty()) throw InputErrors(std::move(diags_));
  }

  void row(const CsvRecord& rec) {
    if (rec.size() != width_) {
      const CsvCell& at = rec.size() > width_ ? rec.cells[width_] : rec.cells.back();
      error(SourceLocation{file_, at.line, at.column},
            "the row has " + std::to_string(rec.size()) + " cells, the header " + std::to_string(width_) +
                (rec.size() > width_ ? " (a comma inside a cell needs the cell in double quotes)" : ""));
      return;
    }
    const auto cell = [&](Col c) -> const std::string& { return rec.cells[index_[c]].text; };
    const auto refuse = [&](Col c, std::string problem) {
      const CsvCell& x = rec.cells[index_[c]];
      error(SourceLocation{file_, x.line, x.column}, std::move(problem));
    };
    for (Col c : kCounts)
      if (std::string problem = count_cell_problem(kColumns[c], cell(c)); !problem.empty())
        refuse(c, std::move(problem));
    if (std::string problem = value_cell_problem(cell(kValue), cell(kUnit)); !problem.empty())
      refuse(kValue, std::move(problem));
    const std::string id = trim(cell(kId));
    if (id.empty()) {
      refuse(kId, "id: empty; every row has an id of its own");
    } else if (const auto [first, fresh] = id_lines_.try_emplace(id, rec.line); !fresh) {
      refuse(kId, "id: '" + shown(id) + "' is already the id of the row at line " +
                      std::to_string(first->second) + "; each row's id is unique");
    }
    DataRow d;
    d.id = trim(cell(kId));
    d.source = trim(cell(kSource));
    d.source_locator = cell(kSourceLocator);
    d.software = cell(kSoftware);
    d.model = trim(cell(kModel));
    d.precision = trim(cell(kPrecision));
    d.hardware = trim(cell(kHardware));
    d.n_devices = cell(kNDevices);
    d.tp = cell(kTp);
    d.pp = cell(kPp);
    d.ep = cell(kEp);
    d.batch = cell(kBatch);
    d.input_len = cell(kInputLen);
    d.output_len = cell(kOutputLen);
    d.metric = trim(cell(kMetric));
    d.value = cell(kValue);
    d.unit = trim(cell(kUnit));
    d.notes = cell(kNotes);
    d.line = rec.line;
    rows_.push_back(std::move(d));
  }

  static constexpr std::size_t kMaxDiags = 20;
  const std::string& file_;
  bool have_header_ = false;
  std::size_t width_ = 0;
  std::array<std::size_t, kColumnCount> index_{};
  std::vector<Diagnostic> diags_;
  std::vector<DataRow> rows_;
  std::unordered_map<std::string, int> id_lines_;  // each id seen -> the line of its row
};

}  // namespace

std::vector<DataRow> parse_measurements(const std::string& text, const std::string& file) {
  Reader r(file);
  scan_csv(text, file, [&](const CsvRecord& rec) { r(rec); });
  return r.finish();
}

std::vector<DataRow> read_measurements(const std::string& path) {
  return parse_measurements(read_input_file(path, "measurements CSV"), path);
}

}  // namespace tessera::accuracy
