#pragma once
// Rabenseifner 2004's reduction schedules at f_alpha = f_beta = 1: critical paths in an independent
// message-level simulation, to 3 decimals (they equal the paper's closed forms, §3.4-§3.7), per
// group size p: (start-ups, blocks / n, combined blocks / n). The cost model's closed forms
// (cost_model_test.cpp) and the generators' verified schedules (schedule_reduce_test.cpp) are both
// held to this one table.

namespace dash::testing {

struct RabenseifnerRow {
  int p;
  double halving_doubling[3];  // allreduce
  double ring[3];
  double recursive_doubling[3];
  double reduce[3];  // reduce_scatter + binary-tree gather
};

inline constexpr RabenseifnerRow rabenseifner_critical_paths[] = {
    {4, {4, 1.5, 0.75}, {6, 1.5, 0.75}, {2, 2, 2}, {4, 1.5, 0.75}},
    {8, {6, 1.75, 0.875}, {14, 1.75, 0.875}, {3, 3, 3}, {6, 1.75, 0.875}},
    {13, {9, 3.75, 1.375}, {24, 1.846, 0.923}, {5, 5, 4}, {8, 2.75, 1.375}},
    {15, {9, 3.75, 1.375}, {28, 1.867, 0.933}, {5, 5, 4}, {8, 2.75, 1.375}},
    {16, {8, 1.875, 0.938}, {30, 1.875, 0.938}, {4, 4, 4}, {8, 1.875, 0.938}},
    {24, {11, 3.875, 1.438}, {46, 1.917, 0.958}, {6, 6, 5}, {10, 2.875, 1.438}},
    {33, {13, 3.938, 1.469}, {64, 1.939, 0.970}, {7, 7, 6}, {12, 2.938, 1.469}},
    {36, {13, 3.938, 1.469}, {70, 1.944, 0.972}, {7, 7, 6}, {12, 2.938, 1.469}},
    {60, {13, 3.938, 1.469}, {118, 1.967, 0.983}, {7, 7, 6}, {12, 2.938, 1.469}},
    {96, {15, 3.969, 1.484}, {190, 1.979, 0.990}, {8, 8, 7}, {14, 2.969, 1.484}},
    {100, {15, 3.969, 1.484}, {198, 1.980, 0.990}, {8, 8, 7}, {14, 2.969, 1.484}},
};

}  // namespace dash::testing
