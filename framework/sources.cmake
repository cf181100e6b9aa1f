# The library's sources, listed (no glob): a new file is added here, in its room's line
# (tests/architecture/house_rules.py checks that every framework/src/**/*.cpp is listed once).
#
# libtessera_sdk: what the SDK headers (include/tessera) declare and what it needs itself: units,
# dtypes, errors, machines, limits, parameter sets, the kinds' anchors and the physics helpers.
set(tessera_sdk_sources
  src/core/sdk/dtype.cpp src/core/sdk/error.cpp src/core/sdk/fabric_defaults.cpp
  src/core/sdk/kind_anchors.cpp src/core/sdk/limits.cpp src/core/sdk/machine.cpp
  src/core/sdk/names.cpp src/core/sdk/parallel_config.cpp src/core/sdk/param_set.cpp
  src/core/sdk/units.cpp
  src/core/text/input_text.cpp src/core/text/nearest_name.cpp src/core/text/safe_text.cpp
  src/physics/attention_work.cpp src/physics/recurrent_work.cpp src/physics/collective_memo.cpp src/physics/collectives.cpp src/physics/comm_kind.cpp src/physics/moe_a2a_routing.cpp
  src/physics/eval_context.cpp src/physics/invalid_reason.cpp src/physics/kv_transfer.cpp
  src/physics/layout.cpp src/physics/level_topology.cpp src/physics/model_params.cpp
  src/physics/moe_load.cpp src/physics/moe_balance.cpp src/physics/normal_quantile.cpp src/physics/shards.cpp src/physics/stage_timing.cpp
  src/physics/step_work.cpp src/physics/tp_overlap.cpp
)

# libtessera_host: everything else (scenario, evaluation, studies, reports), for the executable,
# the Python module and the tests; plugins never link it.
set(tessera_host_sources
  src/analysis/accuracy/accuracy_study.cpp src/analysis/accuracy/error_stats.cpp
  src/analysis/accuracy/load_rows.cpp src/analysis/accuracy/row_plan.cpp
  src/analysis/accuracy/row_prediction.cpp src/analysis/accuracy/serving_rows.cpp
  src/analysis/accuracy/simulated_rows.cpp
  src/analysis/calibration/calibration_study.cpp src/analysis/calibration/data_term.cpp
  src/analysis/calibration/error_bands.cpp src/analysis/calibration/fit_parameters.cpp
  src/analysis/calibration/fit_rows.cpp src/analysis/calibration/fit_sample.cpp
  src/analysis/calibration/fit_state.cpp src/analysis/calibration/fitter.cpp
  src/analysis/calibration/folds.cpp src/analysis/calibration/optimizer.cpp
  src/analysis/calibration/percentiles.cpp
  src/analysis/capacity/capacity_search.cpp src/analysis/capacity/capacity_study.cpp
  src/analysis/capacity/configuration_sim.cpp src/analysis/capacity/disagg_point_sim.cpp
  src/analysis/explore/exploration.cpp src/analysis/explore/serve_exploration.cpp src/analysis/explore/serve_point_values.cpp
  src/analysis/measurements/alias_table.cpp src/analysis/measurements/collective_rows.cpp
  src/analysis/measurements/measurement_cells.cpp src/analysis/measurements/measurement_csv.cpp
  src/analysis/measurements/row_precision.cpp src/analysis/measurements/row_units.cpp
  src/analysis/measurements/table_rows.cpp src/analysis/measurements/text_scan.cpp
  src/analysis/requests/disagg_sim.cpp src/analysis/requests/metric_stats.cpp
  src/analysis/requests/cache_rule.cpp src/analysis/requests/prefix_cache.cpp
  src/analysis/requests/preemption_rule.cpp src/analysis/requests/random_stream.cpp
  src/analysis/requests/replica.cpp
  src/analysis/requests/replica_policy.cpp
  src/analysis/requests/replica_prefill_first.cpp
  src/analysis/requests/request_sim.cpp
  src/analysis/requests/request_stream.cpp src/analysis/requests/sim_recorder.cpp
  src/analysis/requests/slo_check.cpp src/analysis/requests/step_memo.cpp
  src/analysis/requests/time_series.cpp
  src/analysis/search/compare.cpp src/analysis/search/kendall.cpp
  src/analysis/search/record_bytes.cpp src/analysis/search/search_driver.cpp src/analysis/search/sensitivity.cpp
  src/analysis/serving/disagg_study.cpp src/analysis/serving/serve_record_bytes.cpp src/analysis/serving/serve_study.cpp src/analysis/serving/serving_points.cpp
  src/analysis/serving/serving_answer.cpp src/analysis/serving/serve_sensitivity.cpp src/analysis/serving/serve_elasticity.cpp
  src/core/cancellation.cpp src/core/checkpoint/checkpointed_plan.cpp src/core/checkpoint/study_checkpoint.cpp src/core/executor.cpp src/core/program_location.cpp src/core/sha256.cpp
  src/core/workers/process_executor.cpp src/core/workers/unit_protocol.cpp src/core/workers/unit_server.cpp
  src/core/statistics/pareto.cpp src/core/statistics/quantile_sketch.cpp
  src/core/statistics/quantiles.cpp
  src/core/text/csv.cpp src/core/text/diagnostic_limit.cpp src/core/text/input_file.cpp
  src/core/text/inputs_read.cpp src/core/text/text_file.cpp src/core/text/yaml_bool.cpp
  src/eval/batch_evaluator.cpp src/eval/context_watch.cpp src/eval/cost_objective.cpp
  src/eval/engine_kv.cpp src/eval/evaluator.cpp src/eval/grid_pages.cpp src/eval/grid_space.cpp
  src/eval/host_step_timer.cpp src/eval/plugin_check.cpp src/eval/serving_evaluator.cpp
  src/eval/session.cpp src/eval/spec_files.cpp src/eval/speculative_steps.cpp src/eval/study_check.cpp
  src/eval/work_size.cpp
  src/host/call_trace.cpp src/host/guarded_plugins.cpp src/host/param_check.cpp src/host/plugin_barrier.cpp
  src/host/plugin_discovery.cpp src/host/plugin_kinds.cpp src/host/plugin_loader.cpp
  src/host/plugin_registry.cpp src/host/plugin_roles.cpp src/host/returned_values.cpp
  src/report/charts/accuracy_charts.cpp src/report/charts/capacity_charts.cpp
  src/report/charts/compare_charts.cpp src/report/charts/explain_charts.cpp
  src/report/charts/explore_charts.cpp src/report/charts/picked_breakdown.cpp
  src/report/charts/sensitivity_charts.cpp src/report/charts/simulation_charts.cpp
  src/report/charts/vega_marks.cpp src/report/charts/vega_specs.cpp
  src/report/deploy/deploy_writer.cpp
  src/report/html/answer_sentence.cpp src/report/html/html_report.cpp
  src/report/html/web_assets.cpp
  src/report/schema_docs/result_rows.cpp src/report/schema_docs/result_schema.cpp
  src/report/schema_docs/schema_listing.cpp src/report/schema_docs/schema_markdown.cpp
  src/report/study_text/accuracy_report.cpp src/report/study_text/calibration_report.cpp
  src/report/study_text/capacity_report.cpp src/report/study_text/compare_report.cpp
  src/report/study_text/disagg_report.cpp src/report/study_text/explain_report.cpp
  src/report/study_text/explore_report.cpp src/report/study_text/serve_sensitivity_report.cpp src/report/study_text/serving_stack_report.cpp
  src/report/study_text/search_report.cpp src/report/study_text/sensitivity_report.cpp
  src/report/study_text/serve_explore_report.cpp src/report/study_text/serve_report.cpp
  src/report/study_text/simulation_report.cpp
  src/report/text/band_text.cpp src/report/text/collective_explain.cpp
  src/report/text/parallelism_label.cpp src/report/text/pareto_plot.cpp
  src/report/text/request_timeline.cpp src/report/text/text_scatter.cpp
  src/report/text/text_table.cpp
  src/scenario/collectives_warnings.cpp src/scenario/data_roots.cpp
  src/scenario/fields/field_access.cpp src/scenario/fields/mapping_reader.cpp src/scenario/fields/field_reader.cpp
  src/scenario/fields/field_table.cpp src/scenario/fields/fields_machine.cpp
  src/scenario/fields/fields_model.cpp src/scenario/fields/fields_scenario.cpp
  src/scenario/fields/fields_pools.cpp
  src/scenario/fields/fields_prefix_cache.cpp
  src/scenario/fields/fields_speculative.cpp
  src/scenario/prefix_cache_check.cpp
  src/scenario/speculative_check.cpp src/scenario/eplb_check.cpp
  src/scenario/serving_stack_choice.cpp src/scenario/hf_config.cpp src/scenario/hf_families.cpp
  src/scenario/machine_file.cpp
  src/scenario/readers/json_tree.cpp src/scenario/readers/raw_params.cpp src/scenario/readers/schema_util.cpp
  src/scenario/readers/yaml_document.cpp src/scenario/readers/yaml_quoted_scalar.cpp
  src/scenario/readers/yaml_tree.cpp
  src/scenario/scenario_loader.cpp
  src/scenario/schemas/collectives_schema.cpp src/scenario/schemas/machine_schema.cpp
  src/scenario/schemas/model_schema.cpp src/scenario/schemas/requests_schema.cpp
  src/scenario/schemas/scenario_schema.cpp src/scenario/schemas/schema_keys.cpp
  src/scenario/schemas/serving_schema.cpp src/scenario/schemas/slo_spec.cpp
  src/scenario/schemas/sweep_schema.cpp
  src/scenario/serving_stacks/stack_kv_cache.cpp
  src/scenario/serving_stacks/stack_precision.cpp
  src/scenario/serving_stacks/stack_prefix_cache.cpp
  src/scenario/serving_stacks/stack_speculative.cpp
  src/scenario/serving_stacks/stack_moe_a2a.cpp
  src/scenario/serving_stacks/stack_scheduler.cpp
  src/scenario/serving_stacks/stack_launch.cpp
  src/scenario/serving_stacks/stack_profile.cpp
  src/scenario/serving_stacks/stack_restriction.cpp
  src/scenario/sweeps/hardware_points.cpp src/scenario/sweeps/latency_choices.cpp
  src/scenario/sweeps/overrides.cpp src/scenario/sweeps/plugin_axes.cpp
  src/scenario/sweeps/moe_scopes.cpp
  src/scenario/sweeps/pool_parallelism.cpp
  src/scenario/sweeps/sweep_size.cpp
  src/scenario/trace_file.cpp
  src/studies/documents/accuracy_document.cpp src/studies/documents/calibration_document.cpp
  src/studies/documents/capacity_document.cpp src/studies/documents/collective_document.cpp
  src/studies/documents/compare_document.cpp src/studies/documents/disagg_document.cpp
  src/studies/documents/explain_document.cpp src/studies/documents/explain_parts.cpp
  src/studies/documents/explore_document.cpp src/studies/documents/result_documents.cpp
  src/studies/documents/scope_documents.cpp src/studies/documents/search_document.cpp
  src/studies/documents/sensitivity_document.cpp src/studies/documents/serve_document.cpp
  src/studies/documents/simulation_document.cpp
  src/studies/entries/calibrate_entry.cpp src/studies/entries/compare_entry.cpp
  src/studies/entries/evaluate_entry.cpp src/studies/entries/evaluated_batch.cpp src/studies/entries/explain_entry.cpp
  src/studies/entries/explore_entry.cpp src/studies/entries/plugins_entry.cpp
  src/studies/entries/report_entry.cpp src/studies/entries/run_study.cpp
  src/studies/entries/schema_entry.cpp src/studies/entries/sensitivity_entry.cpp
  src/studies/entries/serve_entry.cpp src/studies/entries/validate_data_entry.cpp
  src/studies/entries/validate_entry.cpp
  src/studies/installation.cpp src/studies/plugin_isolation.cpp src/studies/worker_error.cpp
  src/studies/json/band_json.cpp src/studies/json/config_json.cpp src/studies/json/field_text.cpp
  src/studies/json/serving_stack_json.cpp src/studies/json/json_schema.cpp
  src/studies/json/plugin_listing.cpp src/studies/json/points_json.cpp
  src/studies/json/provenance.cpp src/studies/json/stage_breakdown.cpp
  src/studies/objective_info.cpp src/studies/study_context.cpp src/studies/study_description.cpp
  src/studies/work_plan.cpp
)

# The `tessera` executable: one file per command and its front-end helpers (framework/app/).
set(tessera_app_sources
  app/calibrate_command.cpp app/checkpoint_option.cpp app/isolation_option.cpp app/common_options.cpp app/compare_command.cpp app/explain_command.cpp
  app/evaluate_batch_command.cpp app/explore_command.cpp app/html_output.cpp app/main.cpp app/name_list.cpp app/output_files.cpp
  app/plugin_exit.cpp app/plugins_command.cpp app/progress_bar.cpp app/report_command.cpp app/result_stream.cpp app/run_command.cpp
  app/schema_command.cpp app/scope_option.cpp app/sensitivity_command.cpp app/serve_command.cpp
  app/signals.cpp app/study.cpp app/study_options.cpp app/terminal.cpp app/validate_command.cpp
  app/validate_data_command.cpp app/web_dir.cpp app/work_report.cpp
)

# The executors of a study across MPI ranks (core/workers/mpi_job.hpp) in a build with MPI
# (TESSERA_MPI), and their absence in one without: added to tessera_host_sources by
# framework/CMakeLists.txt.
set(tessera_host_mpi_sources
  src/core/workers/mpi_executor.cpp src/core/workers/mpi_job.cpp src/core/workers/mpi_server.cpp
  src/core/workers/mpi_unit_pool.cpp
)
set(tessera_host_no_mpi_sources src/core/workers/mpi_job_absent.cpp)
