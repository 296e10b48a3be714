# Type stub of the ptxfront extension module (python/ptxfront.c): for IDEs
# and type checkers.  doc/python.md is the manual.
import os
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union

__version__: str

_Source = Union[str, bytes, bytearray, memoryview]
_Path = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

def parse(source: _Source, name: str = "<string>", target: Optional[str] = None) -> Module: ...
def parse_file(path: _Path, target: Optional[str] = None) -> Module: ...
def explain(opcode: str) -> str: ...
def instructions(pattern: Optional[str] = None) -> List[str]: ...

class Diagnostic(NamedTuple):
    severity: str               # 'error' | 'warning' | 'note'
    line: Optional[int]         # None: a diagnostic of edited statements
    column: Optional[int]
    message: str
    fixit: Optional[str]
    code: str
    file: str

class Param(NamedTuple):
    name: str
    space: str
    type: str
    align: int
    dims: Tuple[int, ...]

class Variable(NamedTuple):
    name: str
    space: str
    type: str
    align: int
    dims: Tuple[int, ...]
    linkage: Optional[str]

class Module:
    ok: bool
    diagnostics: List[Diagnostic]
    version: Optional[str]
    target: Optional[str]
    targets: List[str]
    address_size: Optional[int]
    name: str
    functions: List[Function]
    variables: List[Variable]
    def emit(self, canonical: bool = False) -> str: ...
    def to_json(self) -> Any: ...
    def function(self, name: str) -> Function: ...
    def validate(self) -> bool: ...
    def declare_variable(self, space: str, type: str, name: str, count: int = 0) -> str: ...

class Function:
    name: str
    kind: str                   # 'entry' | 'func'
    linkage: Optional[str]
    is_definition: bool
    params: List[Param]
    returns: List[Param]
    instructions: List[Instruction]
    registers: Dict[str, int]
    variables: List[Variable]
    blocks: List[Block]
    callees: List[Function]
    line: Optional[int]
    def declare_register(self, type: str, prefix: Optional[str] = None) -> str: ...
    def insert_at_start(self, text: str) -> List[Instruction]: ...
    def __hash__(self) -> int: ...

class Instruction:
    opcode: str
    modifiers: Tuple[str, ...]
    family: Optional[str]
    operands: List[Operand]
    guard: Optional[str]
    line: Optional[int]
    column: Optional[int]
    text: str
    function: Function
    def insert_before(self, text: str) -> List[Instruction]: ...
    def insert_after(self, text: str) -> List[Instruction]: ...
    def replace(self, text: str) -> List[Instruction]: ...
    def remove(self) -> None: ...
    def __hash__(self) -> int: ...

class Operand:
    kind: str
    text: str
    name: Optional[str]
    selector: Optional[str]
    value: Optional[Union[int, float]]
    items: List[Operand]
    base: Optional[Operand]
    offset: Optional[int]
    elements: Optional[List[Operand]]
    def __hash__(self) -> int: ...

class Block:
    index: int
    label: Optional[str]
    is_exit: bool
    instructions: List[Instruction]
    successors: List[Block]
    predecessors: List[Block]
    loop_depth: int
    reachable: bool
    def insert_at_start(self, text: str) -> List[Instruction]: ...
    def __hash__(self) -> int: ...
