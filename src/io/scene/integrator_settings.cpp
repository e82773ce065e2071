// The table of the scene's "integrator" keys; see integrator_settings.hpp.
#include "moreau/io/scene/integrator_settings.hpp"

#include <cmath>
#include <set>
#include <type_traits>

#include <fmt/format.h>

#include "moreau/common/error.hpp"
#include "moreau/io/json/json_reader.hpp"
#include "moreau/io/json/vocabulary.hpp"

namespace moreau {
namespace {

using json = nlohmann::json;
using S = SimulationSettings;
constexpr double kInf = INFINITY;

// "[0, 1]", "(0, 2)", "> 0", "≥ 1": the bounds of a key for a message.
std::string bounds_text(const IntegratorKey& k) {
  const bool lo = std::isfinite(k.low), hi = std::isfinite(k.high);
  if (lo && hi)
    return fmt::format("must lie in {}{}, {}{}", k.low_open ? "(" : "[", k.low, k.high,
                       k.high_open ? ")" : "]");
  if (lo) return fmt::format("must be {} {}", k.low_open ? ">" : "≥", k.low);
  if (hi) return fmt::format("must be {} {}", k.high_open ? "<" : "≤", k.high);
  return "";
}

bool within(const IntegratorKey& k, double x) {
  return (k.low_open ? x > k.low : x >= k.low) && (k.high_open ? x < k.high : x <= k.high);
}

}  // namespace

const std::vector<IntegratorKey>& integrator_keys() {
  static const std::vector<IntegratorKey> kKeys = {
      {"kind", +[](S& s) -> Integrator& { return s.integrator; }, -kInf, kInf, false, false,
       "the integrator: \"timestepping\" (Moreau–Jean) or \"event\" (event-driven)"},
      {"record_interval", +[](S& s) -> double& { return s.record_interval; }, 0, kInf, false, false,
       "s, time between recorded states; 0 records every step and event"},
      {"max_logged_events", +[](S& s) -> int& { return s.max_logged_events; }, 0, kInf, false,
       false, "events kept in the run's event log; every event is counted in event_counts"},
      {"zeno_velocity", +[](S& s) -> double& { return s.zeno_velocity; }, 0, kInf, false, false,
       "m/s, impacts slower than this are plastic (e := 0)"},
      {"solver", +[](S& s) -> std::string& { return s.solver.name; }, -kInf, kInf, false, false,
       "frictional-contact solver of the steps and impacts (solvers/fc registry name, or auto)"},
      {"tolerance", +[](S& s) -> double& { return s.solver.tolerance; }, 0, kInf, true, false,
       "tolerance of the contact solver on the frictional-contact residual"},
      {"max_iterations", +[](S& s) -> int& { return s.solver.max_iterations; }, 1, kInf, false,
       false, "iteration budget of the contact solver"},
      {"dt", +[](S& s) -> double& { return s.time_stepping.dt; }, 0, kInf, true, false,
       "s, time step (timestepping)"},
      {"theta", +[](S& s) -> double& { return s.time_stepping.theta; }, 0, 1, false, false,
       "θ of the θ-method (timestepping)"},
      {"projection", +[](S& s) -> bool& { return s.time_stepping.projection; }, -kInf, kInf, false,
       false, "post-stabilization of penetrations and joint drift (timestepping)"},
      {"mode_velocity", +[](S& s) -> double& { return s.time_stepping.mode_velocity; }, 0, kInf,
       true, false, "m/s, sliding speed above which a step's contact slips (timestepping)"},
      {"separation_steps", +[](S& s) -> int& { return s.time_stepping.separation_steps; }, 0, kInf,
       false, false,
       "steps a closed contact may leave the index set without a separation event (timestepping)"},
      {"scheme", +[](S& s) -> TimeSteppingScheme& { return s.time_stepping.scheme; }, -kInf, kInf,
       false, false,
       "\"moreau\" (explicit forces, projection) or \"siconos\" (Siconos' MoreauJeanOSI: θ-method "
       "on the forces, U_N + e U_N,k) (timestepping)"},
      {"activation_margin",
       +[](S& s) -> double& { return s.time_stepping.contacts.activation_margin; }, 0, kInf, false,
       false, "m, a contact enters the step when g + c h u_n is below it (timestepping)"},
      {"activation_factor",
       +[](S& s) -> double& { return s.time_stepping.contacts.activation_factor; }, 0, kInf, false,
       false, "c of the index set g + c h u_n <= margin (timestepping)"},
      {"newton", +[](S& s) -> NewtonLoop& { return s.time_stepping.newton; }, -kInf, kInf, false,
       false,
       "scheme siconos: \"newton\" (Newton's method) or \"linearized\" (one iteration, "
       "constraints at q_k) (timestepping)"},
      {"newton_tolerance", +[](S& s) -> double& { return s.time_stepping.newton_tolerance; }, 0,
       kInf, true, false, "scheme siconos: ‖R‖ that ends Newton's method (timestepping)"},
      {"newton_max_iterations", +[](S& s) -> int& { return s.time_stepping.newton_max_iterations; },
       1, kInf, false, false, "scheme siconos: Newton iterations per step (timestepping)"},
      {"projection_tolerance",
       +[](S& s) -> double& { return s.time_stepping.contacts.projection_tolerance; }, 0, kInf,
       true, false, "m, violation left by the projection (timestepping)"},
      {"bilateral_feedback",
       +[](S& s) -> double& { return s.time_stepping.contacts.bilateral_feedback; }, 0, kInf, false,
       false, "κ of the joints' velocity feedback u_b = −κ h_b/h (timestepping)"},
      {"relaxation", +[](S& s) -> double& { return s.time_stepping.contacts.nsgs_relaxation; }, 0,
       2, true, true, "over-relaxation ω of body-block NSGS (timestepping)"},
      {"anderson", +[](S& s) -> int& { return s.time_stepping.contacts.nsgs_anderson_memory; }, 0,
       16, false, false,
       "Anderson acceleration of body-block NSGS on islands of at least 16 contacts: its memory, "
       "0 = off (timestepping)"},
      {"coarse_correction",
       +[](S& s) -> bool& { return s.time_stepping.contacts.nsgs_coarse_correction; }, -kInf, kInf,
       false, false,
       "body-block NSGS: a coarse correction over the loaded faces of stacks, false = plain "
       "sweeps (timestepping)"},
      {"body_blocks", +[](S& s) -> bool& { return s.time_stepping.contacts.body_blocks; }, -kInf,
       kInf, false, false, "rigid worlds: solve in body blocks, never forming W (timestepping)"},
      {"threads", +[](S& s) -> int& { return s.time_stepping.contacts.threads; }, 1, 1024, false,
       false,
       "threads of the body-block layer: narrow phase and coloured NSGS; 1 = sequential "
       "(timestepping)"},
      {"sleep", +[](S& s) -> bool& { return s.time_stepping.contacts.sleep; }, -kInf, kInf, false,
       false,
       "rigid worlds: islands at rest sleep until a contact with an awake body wakes them "
       "(timestepping)"},
      {"sleep_velocity", +[](S& s) -> double& { return s.time_stepping.contacts.sleep_velocity; },
       0, kInf, true, false,
       "m/s, a body is quiet when |v_G| and |ω|·R stay below it (sleep, timestepping)"},
      {"sleep_time", +[](S& s) -> double& { return s.time_stepping.contacts.sleep_time; }, 0, kInf,
       true, false,
       "s, an island sleeps once all its bodies have been quiet this long (timestepping)"},
      {"rtol", +[](S& s) -> double& { return s.event_driven.rtol; }, 0, kInf, true, false,
       "relative tolerance of the Dormand–Prince steps (event)"},
      {"atol", +[](S& s) -> double& { return s.event_driven.atol; }, 0, kInf, true, false,
       "absolute tolerance of the Dormand–Prince steps (event)"},
      {"max_step", +[](S& s) -> double& { return s.event_driven.max_step; }, 0, kInf, true, false,
       "s, largest smooth step (event)"},
      {"contact_tolerance", +[](S& s) -> double& { return s.event_driven.contact_tolerance; }, 0,
       kInf, true, false, "m and m/s, a contact is closed when |g| and |u_n| are below it (event)"},
      {"force_tolerance", +[](S& s) -> double& { return s.event_driven.force_tolerance; }, 0, kInf,
       true, false, "N, slack of the mode consistency tests (event)"},
      {"baumgarte_alpha", +[](S& s) -> double& { return s.event_driven.baumgarte_alpha; }, 0, kInf,
       false, false, "1/s, α of the stabilization g'' + 2α g' + β² g = 0 (event)"},
      {"baumgarte_beta", +[](S& s) -> double& { return s.event_driven.baumgarte_beta; }, 0, kInf,
       false, false, "1/s, β of the stabilization (event)"},
      {"painleve_policy", +[](S& s) -> PainlevePolicy& { return s.event_driven.painleve_policy; },
       -kInf, kInf, false, false,
       "at a Painlevé inconsistency: \"tangential_impact\" or \"stop\" (event)"},
      {"max_events", +[](S& s) -> int& { return s.event_driven.max_events; }, 1, kInf, false, false,
       "the run stops after this many events (event)"},
  };
  return kKeys;
}

json integrator_value(const IntegratorKey& key, const SimulationSettings& settings) {
  SimulationSettings& s =
      const_cast<SimulationSettings&>(settings);  // the accessors only read here
  return std::visit(
      [&](auto field) -> json {
        const auto& value = field(s);
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_enum_v<T>)
          return to_string(value);
        else
          return value;
      },
      key.field);
}

void read_integrator_settings(const json& j, const std::string& path,
                              SimulationSettings& settings) {
  std::set<std::string> allowed;
  for (const IntegratorKey& k : integrator_keys()) allowed.insert(k.key);
  json_io::check_keys(j, path, allowed);
  for (const IntegratorKey& k : integrator_keys()) {
    if (!j.contains(k.key)) continue;
    const std::string where = json_io::join(path, k.key);
    std::visit(
        [&](auto field) {
          auto& value = field(settings);
          using T = std::decay_t<decltype(value)>;
          if constexpr (std::is_same_v<T, double>) {
            value = json_io::number(j, path, k.key, value);
            MOREAU_REQUIRE(within(k, value), "{} = {}: {}", where, value, bounds_text(k));
          } else if constexpr (std::is_same_v<T, int>) {
            value = json_io::int_field(j, path, k.key, value);
            MOREAU_REQUIRE(within(k, value), "{} = {}: {}", where, value, bounds_text(k));
          } else if constexpr (std::is_same_v<T, bool>) {
            value = json_io::bool_field(j, path, k.key, value);
          } else if constexpr (std::is_same_v<T, std::string>) {
            value = json_io::string_field(j, path, k.key, value);
          } else {
            value = enum_from_name<T>(json_io::string_field(j, path, k.key, ""), where);
          }
        },
        k.field);
  }
}

}  // namespace moreau
