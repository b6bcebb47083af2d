import Foundation
import Glibc
import ParleyTestSupport
import Testing

/// The test harness's own spawner (``ChildProcess``), which replaces Foundation's `Process`:
/// output through pipes and files, exit codes and signals, and no descriptor of the test
/// process leaking into a child.
@Suite(.timeLimit(.minutes(2))) struct ChildProcessTests {
    @Test func pipesCarryOutputAndTheExitCodeComesBack() throws {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", "read line; echo \"out $line $PWD $GREETING\"; echo err >&2; exit 3"]
        child.environment = ["GREETING": "hi", "PATH": "/usr/bin:/bin"]
        child.currentDirectoryURL = URL(fileURLWithPath: "/tmp")
        let (input, output, error) = (Pipe(), Pipe(), Pipe())
        (child.standardInput, child.standardOutput, child.standardError) = (input, output, error)
        try child.run()
        input.fileHandleForWriting.write(Data("in\n".utf8))
        try input.fileHandleForWriting.close()
        // End of file arrives once the child exits: the parent holds no copy of its write ends.
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        #expect(out == "out in /tmp hi\n")
        #expect(err == "err\n")
        #expect(child.terminationStatus == 3 && !child.isRunning && child.processIdentifier > 0)
    }

    @Test func terminateEndsAChildWithSIGTERMAndTheNullDeviceIsOpened() throws {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["30"]
        child.standardInput = FileHandle.nullDevice
        child.standardOutput = FileHandle.nullDevice
        try child.runAlone()
        #expect(child.isRunning)
        child.terminate()
        child.waitUntilExit()
        #expect(!child.isRunning)
        #expect(child.terminationStatus == SIGTERM)
    }

    @Test func aChildInheritsOnlyItsThreeStandardDescriptors() throws {
        // A descriptor without close-on-exec, as Foundation's own pipes are made, moved above
        // the low numbers: a pipe given fd 3 read as leaked when ls listed its own directory
        // under the same number.
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        let leaked = [fcntl(pipeEnds[0], F_DUPFD, 200), fcntl(pipeEnds[1], F_DUPFD, 200)]
        close(pipeEnds[0])
        close(pipeEnds[1])
        #expect(leaked.allSatisfy { $0 >= 200 })
        defer {
            close(leaked[0])
            close(leaked[1])
        }
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/ls")
        child.arguments = ["/proc/self/fd"]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let listed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        let descriptors = Set(listed.split(separator: "\n").compactMap { Int32($0) })
        // ls itself opens one (the directory it lists).
        #expect(descriptors.isSubset(of: [0, 1, 2, 3]) && descriptors.isSuperset(of: [0, 1, 2]))
        #expect(!descriptors.contains(leaked[0]) && !descriptors.contains(leaked[1]))
    }

    @Test func aLookDoesNotWaitBehindAnotherThreadsWait() throws {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["30"]
        try child.run()
        let reaped = DispatchSemaphore(value: 0)
        Thread {
            child.waitUntilExit()
            reaped.signal()
        }.start()
        usleep(200_000)  // the other thread is (very likely) blocked in waitpid by now
        // A look waiting behind that wait would return only when the child exits, and false.
        #expect(child.isRunning)
        child.terminate()
        #expect(reaped.wait(timeout: .now() + 10) == .success)
        #expect(!child.isRunning && child.terminationStatus == SIGTERM)
    }

    @Test func aMissingProgramThrows() {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/nonexistent/program")
        #expect(throws: ChildProcess.SpawnError.self) { try child.run() }
        #expect(!child.isRunning)
    }
}
