#include "imbalance/LossPlot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace divopt::imbalance {

namespace {

constexpr double Width = 720, PanelHeight = 220, Top = 40;
constexpr double Left = 70, Right = 20, PlotTop = 30, PlotBottom = 40;

std::string escapeXml(const std::string &S) {
  std::string Out;
  for (char C : S) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

std::string num(double X, const char *Format = "%.2f") {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, Format, X);
  return Buf;
}

// A tick step of 1, 2 or 5 times a power of ten giving about five ticks.
double tickStep(double Range) {
  double Raw = Range / 5, Power = std::pow(10.0, std::floor(std::log10(Raw)));
  for (double M : {1.0, 2.0, 5.0})
    if (M * Power >= Raw)
      return M * Power;
  return 10 * Power;
}

std::string tickLabel(double V, double Step) {
  int Decimals = std::max(0, int(-std::floor(std::log10(Step))));
  char Format[16];
  std::snprintf(Format, sizeof Format, "%%.%df", Decimals);
  return num(V, Format);
}

void writePanel(std::ostream &OS, const LossPlotPanel &P, double Y0) {
  double X0 = Left, W = Width - Left - Right, H = PanelHeight - PlotTop - PlotBottom;
  double Base = Y0 + PlotTop + H;
  double YMax = 0;
  for (double V : P.Model)
    YMax = std::max(YMax, V);
  for (double V : P.Simulated)
    YMax = std::max(YMax, V);
  YMax = YMax > 0 ? YMax * 1.1 : 1;
  auto Sx = [&](double X) { return X0 + (X - P.Range.Lo) / (P.Range.Hi - P.Range.Lo) * W; };
  auto Sy = [&](double Y) { return Base - Y / YMax * H; };

  OS << "<text x='" << X0 << "' y='" << Y0 + 20 << "' class='h'>n = " << P.N << "   mean: model "
     << num(P.ModelMean, "%.4f");
  if (!P.Simulated.empty())
    OS << ", simulated " << num(P.SimulatedMean, "%.4f");
  OS << "</text>\n";
  OS << "<rect x='" << X0 << "' y='" << Y0 + PlotTop << "' width='" << W << "' height='" << H
     << "' class='frame'/>\n";

  double XStep = tickStep(P.Range.Hi - P.Range.Lo);
  for (double T = std::ceil(P.Range.Lo / XStep) * XStep; T <= P.Range.Hi + 1e-9; T += XStep)
    OS << "<line x1='" << num(Sx(T)) << "' y1='" << Base << "' x2='" << num(Sx(T)) << "' y2='"
       << Base + 4 << "' class='axis'/><text x='" << num(Sx(T)) << "' y='" << Base + 16
       << "' class='tx'>" << tickLabel(T, XStep) << "</text>\n";
  double YStep = tickStep(YMax);
  for (double T = 0; T <= YMax; T += YStep)
    OS << "<line x1='" << X0 - 4 << "' y1='" << num(Sy(T)) << "' x2='" << X0 << "' y2='"
       << num(Sy(T)) << "' class='axis'/><text x='" << X0 - 6 << "' y='" << num(Sy(T) + 4)
       << "' class='ty'>" << tickLabel(T, YStep) << "</text>\n";
  OS << "<text x='" << X0 + W / 2 << "' y='" << Base + 32
     << "' class='tx'>loss X = n max / sum (bins of " << num(P.Range.width(), "%.3g")
     << ")</text>\n";

  for (size_t B = 0; B < P.Model.size(); ++B) {
    double L = P.Range.Lo + B * P.Range.width();
    OS << "<rect x='" << num(Sx(L)) << "' y='" << num(Sy(P.Model[B])) << "' width='"
       << num(Sx(L + P.Range.width()) - Sx(L)) << "' height='" << num(Base - Sy(P.Model[B]))
       << "' class='model'/>\n";
  }
  for (size_t B = 0; B < P.Simulated.size(); ++B)
    OS << "<circle cx='" << num(Sx(P.Range.Lo + (B + 0.5) * P.Range.width())) << "' cy='"
       << num(Sy(P.Simulated[B])) << "' r='2.5' class='sim'/>\n";
  auto MeanLine = [&](double M, const char *Class) {
    if (M >= P.Range.Lo && M <= P.Range.Hi)
      OS << "<line x1='" << num(Sx(M)) << "' y1='" << Y0 + PlotTop << "' x2='" << num(Sx(M))
         << "' y2='" << Base << "' class='" << Class << "'/>\n";
  };
  MeanLine(P.ModelMean, "mmean");
  if (!P.Simulated.empty())
    MeanLine(P.SimulatedMean, "smean");
}

} // namespace

void writeLossPlotSvg(std::ostream &OS, const std::string &Title,
                      const std::vector<LossPlotPanel> &Panels) {
  double Height = Top + PanelHeight * double(Panels.size()) + 10;
  OS << "<?xml version='1.0' encoding='UTF-8'?>\n"
     << "<svg xmlns='http://www.w3.org/2000/svg' width='" << Width << "' height='" << Height
     << "' viewBox='0 0 " << Width << ' ' << Height << "' font-family='sans-serif'>\n"
     << "<style>.h{font-size:13px}.tx{font-size:11px;text-anchor:middle}"
        ".ty{font-size:11px;text-anchor:end}.frame{fill:none;stroke:#888}"
        ".axis{stroke:#888}.model{fill:#8fb8de;stroke:#5a8cc0;stroke-width:0.5}"
        ".sim{fill:#d9541e}.mmean{stroke:#1f4e8c;stroke-dasharray:4 3}"
        ".smean{stroke:#d9541e;stroke-dasharray:2 3}</style>\n"
     << "<rect width='100%' height='100%' fill='white'/>\n"
     << "<text x='" << Left << "' y='22' font-size='15'>" << escapeXml(Title) << "</text>\n";
  bool AnySimulated = std::any_of(Panels.begin(), Panels.end(),
                                  [](const LossPlotPanel &P) { return !P.Simulated.empty(); });
  double LegendX = Width - Right - (AnySimulated ? 260 : 120);
  OS << "<rect x='" << LegendX << "' y='12' width='12' height='10' class='model'/><text x='"
     << LegendX + 16 << "' y='21' font-size='11'>model pmf</text>\n";
  if (AnySimulated)
    OS << "<circle cx='" << LegendX + 116 << "' cy='17' r='3' class='sim'/><text x='"
       << LegendX + 124 << "' y='21' font-size='11'>simulated frequency</text>\n";
  for (size_t I = 0; I < Panels.size(); ++I)
    writePanel(OS, Panels[I], Top + PanelHeight * double(I));
  OS << "</svg>\n";
}

} // namespace divopt::imbalance
