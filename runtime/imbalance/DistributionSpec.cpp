#include "imbalance/DistributionSpec.h"
#include "imbalance/EmpiricalDistribution.h"
#include "imbalance/ParametricDistributions.h"

#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace divopt::imbalance {

namespace {

const char *const Forms =
    "binomial:N,P, geometric:P, poisson:LAMBDA, uniform:A,B, negbinomial:R,P or empirical:FILE";

std::vector<double> parseParameters(const std::string &Name, const std::string &Text,
                                    size_t Expected, const std::string &Form) {
  std::vector<double> Values;
  size_t Start = 0;
  while (true) {
    size_t Comma = Text.find(',', Start);
    std::string Field = Text.substr(Start, Comma == std::string::npos ? Comma : Comma - Start);
    char *End = nullptr;
    double V = std::strtod(Field.c_str(), &End);
    if (Field.empty() || *End != '\0' || !std::isfinite(V))
      throw std::invalid_argument(Name + ": '" + Field + "' is not a number (expected " + Form +
                                  ")");
    Values.push_back(V);
    if (Comma == std::string::npos)
      break;
    Start = Comma + 1;
  }
  if (Values.size() != Expected)
    throw std::invalid_argument(Name + " takes " + std::to_string(Expected) + " parameter" +
                                (Expected == 1 ? "" : "s") + " (" + Form + "), got " +
                                std::to_string(Values.size()));
  return Values;
}

} // namespace

WorkDistribution parseDistribution(const std::string &Spec, double Epsilon) {
  checkEpsilon(Epsilon);
  size_t Colon = Spec.find(':');
  std::string Name = Spec.substr(0, Colon);
  if (Colon == std::string::npos)
    throw std::invalid_argument("distribution '" + Spec + "' has no parameters (expected " + Forms +
                                ")");
  std::string Rest = Spec.substr(Colon + 1);
  if (Name == "empirical") {
    if (Rest.empty())
      throw std::invalid_argument("empirical: no file named (expected empirical:FILE)");
    return readCountsFile(Rest);
  }
  if (Name == "binomial") {
    auto V = parseParameters(Name, Rest, 2, "binomial:N,P");
    return binomialDistribution(V[0], V[1]);
  }
  if (Name == "geometric")
    return geometricDistribution(parseParameters(Name, Rest, 1, "geometric:P")[0], Epsilon);
  if (Name == "poisson")
    return poissonDistribution(parseParameters(Name, Rest, 1, "poisson:LAMBDA")[0], Epsilon);
  if (Name == "uniform") {
    auto V = parseParameters(Name, Rest, 2, "uniform:A,B");
    return uniformDistribution(V[0], V[1]);
  }
  if (Name == "negbinomial") {
    auto V = parseParameters(Name, Rest, 2, "negbinomial:R,P");
    return negativeBinomialDistribution(V[0], V[1], Epsilon);
  }
  throw std::invalid_argument("unknown distribution '" + Name + "' (expected " + Forms + ")");
}

} // namespace divopt::imbalance
