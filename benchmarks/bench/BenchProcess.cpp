#include "BenchProcess.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace divopt::bench {

namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> childEnvironment(const ProcessSpec &S) {
  std::vector<std::string> Env;
  for (char **E = environ; *E; ++E)
    if (std::strncmp(*E, "DIVOPT_", 7) != 0)
      Env.emplace_back(*E);
  for (const auto &[Name, Value] : S.Env)
    Env.push_back(Name + "=" + Value);
  return Env;
}

std::vector<char *> pointers(std::vector<std::string> &Strings) {
  std::vector<char *> P;
  for (std::string &S : Strings)
    P.push_back(S.data());
  P.push_back(nullptr);
  return P;
}

// Reads what is available from Fd into Out; false at end of file.
bool drain(int Fd, std::string &Out) {
  char Buf[65536];
  ssize_t N = read(Fd, Buf, sizeof Buf);
  if (N > 0) {
    Out.append(Buf, size_t(N));
    return true;
  }
  return N < 0 && (errno == EINTR || errno == EAGAIN);
}

} // namespace

std::string executablePath() {
  std::error_code E;
  std::filesystem::path P = std::filesystem::read_symlink("/proc/self/exe", E);
  if (E)
    throw std::runtime_error("cannot find this executable (/proc/self/exe: " + E.message() + ")");
  return P.string();
}

std::string executableDirectory() {
  return std::filesystem::path(executablePath()).parent_path().string();
}

ProcessResult runProcess(const ProcessSpec &S) {
  std::vector<std::string> Argv = {S.Program};
  Argv.insert(Argv.end(), S.Args.begin(), S.Args.end());
  std::vector<std::string> Env = childEnvironment(S);
  std::vector<char *> ArgP = pointers(Argv), EnvP = pointers(Env);

  int Out[2], Err[2];
  if (pipe(Out) != 0)
    throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  if (pipe(Err) != 0) {
    close(Out[0]);
    close(Out[1]);
    throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  auto Start = Clock::now();
  pid_t Child = fork();
  if (Child < 0)
    throw std::runtime_error("cannot start " + S.Program + ": " + std::strerror(errno));
  if (Child == 0) {
    setpgid(0, 0); // its own process group: a timeout ends its children too
    dup2(Out[1], STDOUT_FILENO);
    dup2(Err[1], STDERR_FILENO);
    close(Out[0]);
    close(Out[1]);
    close(Err[0]);
    close(Err[1]);
    execve(S.Program.c_str(), ArgP.data(), EnvP.data());
    std::fprintf(stderr, "cannot execute %s: %s\n", S.Program.c_str(), std::strerror(errno));
    _exit(127);
  }
  close(Out[1]);
  close(Err[1]);

  ProcessResult R;
  auto Deadline = Start + std::chrono::duration_cast<Clock::duration>(
                              std::chrono::duration<double>(S.TimeoutSeconds));
  pollfd Fds[2] = {{Out[0], POLLIN, 0}, {Err[0], POLLIN, 0}};
  int Open = 2;
  while (Open > 0) {
    auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(Deadline - Clock::now());
    if (Left.count() <= 0) {
      R.TimedOut = true;
      kill(-Child, SIGKILL);
      break;
    }
    int Ready = poll(Fds, 2, int(std::min<long long>(Left.count(), 1000)));
    if (Ready < 0 && errno != EINTR)
      break;
    for (int I = 0; I < 2; ++I) {
      if (Fds[I].fd < 0 || !(Fds[I].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      if (!drain(Fds[I].fd, I == 0 ? R.Stdout : R.Stderr)) {
        close(Fds[I].fd);
        Fds[I].fd = -1;
        --Open;
      }
    }
  }
  for (pollfd &F : Fds)
    if (F.fd >= 0)
      close(F.fd);
  // A child that closed both pipes may still be running: it gets the rest
  // of its time limit, no more.
  int Status = 0;
  for (;;) {
    pid_t Done = waitpid(Child, &Status, R.TimedOut ? 0 : WNOHANG);
    if (Done == Child || (Done < 0 && errno != EINTR))
      break;
    if (Done == 0 && Clock::now() >= Deadline) {
      R.TimedOut = true;
      kill(-Child, SIGKILL);
    } else if (Done == 0) {
      usleep(10000);
    }
  }
  R.Seconds = std::chrono::duration<double>(Clock::now() - Start).count();
  if (WIFEXITED(Status))
    R.ExitCode = WEXITSTATUS(Status);
  else if (WIFSIGNALED(Status))
    R.Signal = WTERMSIG(Status);
  return R;
}

std::string commandLine(const ProcessSpec &S) {
  std::string Line;
  for (const auto &[Name, Value] : S.Env)
    Line += Name + "=" + Value + " ";
  Line += std::filesystem::path(S.Program).filename().string();
  for (const std::string &A : S.Args)
    Line += " " + A;
  return Line;
}

std::string lastLines(const std::string &Text, unsigned Lines) {
  std::vector<std::string> All;
  size_t Start = 0;
  while (Start < Text.size()) {
    size_t End = Text.find('\n', Start);
    if (End == std::string::npos)
      End = Text.size();
    if (End > Start)
      All.push_back(Text.substr(Start, End - Start));
    Start = End + 1;
  }
  std::string Out;
  for (size_t I = All.size() > Lines ? All.size() - Lines : 0; I < All.size(); ++I)
    Out += (Out.empty() ? "" : "\n") + All[I];
  return Out;
}

} // namespace divopt::bench
