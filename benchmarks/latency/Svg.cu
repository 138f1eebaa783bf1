// A sweep as an SVG line plot: one polyline per series with a marker per
// point and a bar for its spread, axes with five ticks, a legend.
#include "Writers.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace latency {
namespace {

constexpr double Width = 720, Height = 420, Left = 80, Right = 170, Top = 40, Bottom = 60;
const char *const Colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                               "#9467bd", "#8c564b", "#e377c2", "#17becf"};

std::string fmt(double X) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.1f", X);
  return Buf;
}

std::string label(double X) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%g", X);
  return Buf;
}

std::string escape(const std::string &S) {
  std::string Out;
  for (char C : S)
    Out += C == '<' ? "&lt;" : C == '>' ? "&gt;" : C == '&' ? "&amp;" : std::string(1, C);
  return Out;
}

} // namespace

void writeSvg(const std::string &Path, const Sweep &S) {
  double XMin = INFINITY, XMax = -INFINITY, YMax = 0;
  for (const Series &L : S.Lines)
    for (const Point &P : L.Points) {
      XMin = std::min(XMin, P.X);
      XMax = std::max(XMax, P.X);
      YMax = std::max(YMax, P.Median + P.Spread / 2);
    }
  if (!(XMin <= XMax))
    XMin = 0, XMax = 1;
  bool Log = S.LogX && XMin > 0;
  auto xv = [&](double X) { return Log ? std::log2(X) : X; };
  double X0 = xv(XMin), X1 = xv(XMax) > X0 ? xv(XMax) : X0 + 1;
  double Y1 = YMax > 0 ? YMax * 1.1 : 1;
  auto px = [&](double X) { return Left + (xv(X) - X0) / (X1 - X0) * (Width - Left - Right); };
  auto py = [&](double Y) { return Height - Bottom - Y / Y1 * (Height - Top - Bottom); };

  std::ofstream OS(Path);
  OS << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << Width << "\" height=\"" << Height
     << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
     << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
     << "<text x=\"" << Width / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">"
     << escape(S.Title) << "</text>\n";
  double AxisY = Height - Bottom, AxisX = Left, EndX = Width - Right;
  OS << "<line x1=\"" << AxisX << "\" y1=\"" << AxisY << "\" x2=\"" << EndX << "\" y2=\"" << AxisY
     << "\" stroke=\"black\"/>\n<line x1=\"" << AxisX << "\" y1=\"" << Top << "\" x2=\"" << AxisX
     << "\" y2=\"" << AxisY << "\" stroke=\"black\"/>\n";
  for (int I = 0; I <= 4; ++I) {
    double Y = Y1 * I / 4, X = Log ? std::exp2(X0 + (X1 - X0) * I / 4) : X0 + (X1 - X0) * I / 4;
    OS << "<text x=\"" << AxisX - 6 << "\" y=\"" << fmt(py(Y) + 4) << "\" text-anchor=\"end\">"
       << label(std::round(Y * 10) / 10) << "</text>\n"
       << "<line x1=\"" << AxisX << "\" y1=\"" << fmt(py(Y)) << "\" x2=\"" << EndX << "\" y2=\""
       << fmt(py(Y)) << "\" stroke=\"#ddd\"/>\n"
       << "<text x=\"" << fmt(px(X)) << "\" y=\"" << AxisY + 18 << "\" text-anchor=\"middle\">"
       << label(std::round(X * 10) / 10) << "</text>\n";
  }
  OS << "<text x=\"" << (AxisX + EndX) / 2 << "\" y=\"" << Height - 18
     << "\" text-anchor=\"middle\">" << escape(S.XLabel) << (Log ? " (log scale)" : "")
     << "</text>\n<text transform=\"translate(18," << (Top + AxisY) / 2
     << ") rotate(-90)\" text-anchor=\"middle\">" << escape(S.YLabel) << "</text>\n";
  for (size_t I = 0; I < S.Lines.size(); ++I) {
    const Series &L = S.Lines[I];
    const char *C = Colours[I % (sizeof Colours / sizeof *Colours)];
    OS << "<polyline fill=\"none\" stroke=\"" << C << "\" stroke-width=\"1.5\" points=\"";
    for (const Point &P : L.Points)
      OS << fmt(px(P.X)) << ',' << fmt(py(P.Median)) << ' ';
    OS << "\"/>\n";
    for (const Point &P : L.Points)
      OS << "<line x1=\"" << fmt(px(P.X)) << "\" y1=\"" << fmt(py(P.Median - P.Spread / 2))
         << "\" x2=\"" << fmt(px(P.X)) << "\" y2=\"" << fmt(py(P.Median + P.Spread / 2))
         << "\" stroke=\"" << C << "\"/>\n<circle cx=\"" << fmt(px(P.X)) << "\" cy=\""
         << fmt(py(P.Median)) << "\" r=\"2.5\" fill=\"" << C << "\"/>\n";
    double LegendY = Top + 10 + 18 * I;
    OS << "<rect x=\"" << EndX + 12 << "\" y=\"" << LegendY - 8 << "\" width=\"10\" height=\"10\" fill=\""
       << C << "\"/>\n<text x=\"" << EndX + 28 << "\" y=\"" << LegendY + 1 << "\">"
       << escape(L.Name) << "</text>\n";
  }
  OS << "</svg>\n";
  if (!OS)
    throw std::runtime_error(Path + ": cannot write");
}

} // namespace latency
